import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkDump, checkEmptyDatabase, dumpDatabase, restoreDatabase, withDatabase } from './database';
import { capture, fileEntry } from './files';
import {
  backupId,
  latestManifest,
  locateBackup,
  MANIFEST_FORMAT,
  verifyFiles,
  writeManifest,
  type Manifest,
} from './manifest';
import {
  backupRepository,
  mirrorRepository,
  repositoriesOn,
  restoreRepository,
  type RepositoryEntry,
} from './repositories';

export { locateBackup, verifyFiles, type Manifest } from './manifest';
export type { RepositoryEntry } from './repositories';

/** Shards by name (GIT_WORKER_SHARDS' names), each with its REPOS_ROOT. */
export type ShardRoots = Record<string, string>;

export interface BackupOptions {
  /** The backup set's folder: each backup is a folder in it, incremental on the newest before it. */
  to: string;
  databaseUrl: string;
  redisUrl: string;
  /** Shards whose REPOS_ROOT this process can read (the local stack's). */
  shards: ShardRoots;
  /**
   * Shards reached over their git HTTP side instead (name → URL, as in GIT_WORKER_SHARDS), with
   * claims signed by `principalSecret`: in Kubernetes, where each shard's volume is its pod's.
   * Each repository is mirrored into the set (`mirrors/`), then bundled from there.
   */
  remoteShards?: Record<string, string>;
  principalSecret?: string;
  log: (line: string) => void;
  /** A full backup even when the set has one to build on. */
  full?: boolean;
  drainTimeoutMs?: number;
}

/**
 * Backs the system up while it serves: the database from one snapshot (database.ts says at what
 * moment), then every repository of every shard, one at a time, as bundles. The manifest is
 * written last: a backup without one did not finish, and is never built on nor restored.
 */
export async function backup(options: BackupOptions): Promise<Manifest> {
  const { to, log } = options;
  mkdirSync(to, { recursive: true });
  const previous = options.full ? null : latestManifest(to);
  const started = new Date();
  const id = backupId(to, started);
  mkdirSync(join(to, id), { recursive: true });
  log(`backup ${id} into ${to}${previous ? `, incremental on ${previous.id}` : ', full'}`);

  const databasePath = join(id, 'database.dump');
  const snapshot = await dumpDatabase({
    databaseUrl: options.databaseUrl,
    redisUrl: options.redisUrl,
    file: join(to, databasePath),
    log,
    drainTimeoutMs: options.drainTimeoutMs ?? 60_000,
  });
  log(`database: ${Object.keys(snapshot.schemas).length} schemas`);

  // The repositories are copied after the snapshot, so every commit the database names is in them.
  const before = new Map((previous?.repositories ?? []).map((r) => [`${r.shard}/${r.projectId}`, r]));
  const repositories: RepositoryEntry[] = [];
  let written = 0;
  for (const [shard, root] of Object.entries(options.shards)) {
    for (const projectId of repositoriesOn(root)) {
      const entry = await backupRepository({
        repo: join(root, `${projectId}.git`),
        projectId,
        shard,
        setRoot: to,
        path: join(id, 'repositories', shard, `${projectId}.bundle`),
        previous: before.get(`${shard}/${projectId}`),
      });
      if (entry.bundles.at(-1)?.path.startsWith(`${id}/`)) written++;
      repositories.push(entry);
    }
  }
  for (const [shard, httpUrl] of Object.entries(options.remoteShards ?? {})) {
    if (!options.principalSecret) throw new Error('remote shards need PRINCIPAL_SECRET to sign their claims');
    for (const project of snapshot.projects.filter((p) => p.storage === shard)) {
      const mirror = join(to, 'mirrors', shard, `${project.id}.git`);
      const found = await mirrorRepository({
        httpUrl,
        mirror,
        projectId: project.id,
        defaultBranch: project.defaultBranch,
        secret: options.principalSecret,
      });
      if (!found) continue;
      const entry = await backupRepository({
        repo: mirror,
        projectId: project.id,
        shard,
        setRoot: to,
        path: join(id, 'repositories', shard, `${project.id}.bundle`),
        previous: before.get(`${shard}/${project.id}`),
      });
      if (entry.bundles.at(-1)?.path.startsWith(`${id}/`)) written++;
      repositories.push(entry);
    }
  }
  log(`repositories: ${repositories.length}, ${written} of them with a new bundle`);

  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    id,
    previous: previous?.id ?? null,
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    versions: {
      postgresServer: snapshot.serverVersion,
      pgDump: snapshot.pgDumpVersion,
      git: (await capture('git', ['--version'])).trim(),
      node: process.version,
    },
    database: { ...(await fileEntry(to, databasePath)), schemas: snapshot.schemas, events: snapshot.events },
    shards: [...Object.keys(options.shards), ...Object.keys(options.remoteShards ?? {})],
    repositories,
  };
  writeManifest(to, manifest);
  log(`backup ${id} finished`);
  return manifest;
}

/**
 * Where each repository goes on restore: on its own shard when the new system has one of that
 * name, else on the one holding the fewest so far (ties to the first named), as new projects are
 * placed.
 */
export function placeRepositories(repositories: RepositoryEntry[], shards: string[]): Map<number, string> {
  if (shards.length === 0) throw new Error('no shard to restore repositories onto');
  const held = new Map(shards.map((s) => [s, 0]));
  const placed = new Map<number, string>();
  for (const repo of repositories) if (held.has(repo.shard)) held.set(repo.shard, held.get(repo.shard)! + 1);
  for (const repo of repositories) {
    let shard = repo.shard;
    if (!held.has(shard)) {
      shard = shards.reduce((best, s) => (held.get(s)! < held.get(best)! ? s : best), shards[0]);
      held.set(shard, held.get(shard)! + 1);
    }
    placed.set(repo.projectId, shard);
  }
  return placed;
}

export interface RestoreOptions {
  /** A backup's folder, or a set's (its newest finished backup). */
  from: string;
  databaseUrl: string;
  shards: ShardRoots;
  log: (line: string) => void;
}

/**
 * Restores a backup onto an empty system: checks everything first (the files against the
 * manifest, the dump's table of contents, an empty database and empty shards), then the database
 * in one transaction, then the repositories, placed by `placeRepositories`. Events the snapshot
 * had not relayed are in its outboxes and go out when the services start; pending hook
 * deliveries are queued again by the hook workers as they start.
 */
export async function restore(options: RestoreOptions): Promise<Manifest> {
  const { log } = options;
  const { setRoot, manifest } = locateBackup(options.from);
  log(`restoring backup ${manifest.id} from ${setRoot}`);
  await verifyFiles(setRoot, manifest);
  await checkDump(join(setRoot, manifest.database.path));
  await checkEmptyDatabase(options.databaseUrl);
  for (const [shard, root] of Object.entries(options.shards)) {
    const held = repositoriesOn(root);
    if (held.length) {
      throw new Error(`shard ${shard} (${root}) already holds ${held.length} repositories: restore onto empty shards`);
    }
  }
  const placement = placeRepositories(manifest.repositories, Object.keys(options.shards));

  await restoreDatabase(options.databaseUrl, join(setRoot, manifest.database.path));
  log(`database restored (${Object.keys(manifest.database.schemas).length} schemas)`);

  const projects = await withDatabase(options.databaseUrl, async (sql) => {
    const ids = new Set((await sql<{ id: number }[]>`select id from projects.projects`).map((r) => r.id));
    // Repositories that move to another shard: both records of the shard follow them.
    const moved = manifest.repositories.filter((r) => ids.has(r.projectId) && placement.get(r.projectId) !== r.shard);
    await sql.begin(async (tx) => {
      for (const repo of moved) {
        const shard = placement.get(repo.projectId)!;
        await tx`update projects.projects set repository_storage = ${shard} where id = ${repo.projectId}`;
        await tx`
          insert into repository.project_storages (project_id, storage) values (${repo.projectId}, ${shard})
          on conflict (project_id) do update set storage = excluded.storage`;
      }
    });
    if (moved.length) log(`${moved.length} repositories placed on other shards than they were on`);
    return ids;
  });

  let restored = 0;
  for (const repo of manifest.repositories) {
    // A project made after the snapshot has a repository but no row: its id will be given again.
    if (!projects.has(repo.projectId)) {
      log(`skipping the repository of project ${repo.projectId}: the snapshot has no such project`);
      continue;
    }
    const root = options.shards[placement.get(repo.projectId)!];
    const path = join(root, `${repo.projectId}.git`);
    if (existsSync(path)) throw new Error(`${path} exists already`);
    await restoreRepository(repo, setRoot, path);
    restored++;
  }
  log(`repositories restored: ${restored}`);
  return manifest;
}
