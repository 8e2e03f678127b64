import { loadConfig } from '@hub/common';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { launcherAlive, readState } from '../leftovers';
import { startPostgres } from '../postgres-server';
import { backup, restore, type ShardRoots } from './index';

const flag = (args: string[], name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};

/** `--repos default=/srv/repos,shard2=/srv/repos-2`: each shard's REPOS_ROOT, named. */
function reposFlag(text: string): ShardRoots {
  const roots: ShardRoots = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const [name, dir] = pair.split('=');
    if (!name || !dir) throw new Error(`--repos wants name=folder pairs separated by commas, got "${pair}"`);
    roots[name] = resolve(dir);
  }
  return roots;
}

const localPaths = () => {
  const dataDir = resolve(loadConfig(['DATA_DIR'] as const).DATA_DIR);
  return { dataDir, reposRoot: resolve(process.env.REPOS_ROOT ?? join(dataDir, 'repositories')) };
};

/** The shards of the local stack (`npm start -- --shards n`): REPOS_ROOT, then REPOS_ROOT-shard<n>. */
function localShards(reposRoot: string): ShardRoots {
  const roots: ShardRoots = { default: reposRoot };
  const parent = dirname(reposRoot);
  const prefix = `${basename(reposRoot)}-shard`;
  if (existsSync(parent)) {
    for (const name of readdirSync(parent).sort()) {
      const n = name.startsWith(prefix) ? name.slice(prefix.length) : '';
      if (/^\d+$/.test(n)) roots[`shard${n}`] = join(parent, name);
    }
  }
  return roots;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `backup --to DIR [--full] [--repos name=dir,...]`: without DATABASE_URL and REDIS_URL, the
 * stack `npm start` runs on this machine; with GIT_WORKER_SHARDS and no `--repos`, the shards
 * it names, over git HTTP (a cluster's CronJob).
 */
export async function backupCommand(args: string[]): Promise<void> {
  const to = flag(args, '--to');
  if (!to) throw new Error('usage: backup --to DIR [--full] [--repos name=dir,...]');
  const repos = flag(args, '--repos');
  // In a cluster (GIT_WORKER_SHARDS set) the shards are read over their git HTTP side.
  const remote = !repos && process.env.GIT_WORKER_SHARDS;
  const remoteShards = remote
    ? Object.fromEntries(
        Object.entries(loadConfig(['GIT_WORKER_SHARDS'] as const).GIT_WORKER_SHARDS).map(([name, shard]) => [
          name,
          shard.httpUrl,
        ]),
      )
    : undefined;
  await backup({
    to: resolve(to),
    remoteShards,
    principalSecret: process.env.PRINCIPAL_SECRET,
    databaseUrl:
      process.env.DATABASE_URL ?? `postgres://postgres@127.0.0.1:${process.env.LOCAL_POSTGRES_PORT ?? 15432}/hub`,
    redisUrl: process.env.REDIS_URL ?? `redis://127.0.0.1:${process.env.LOCAL_REDIS_PORT ?? 16379}`,
    shards: repos ? reposFlag(repos) : remote ? {} : localShards(localPaths().reposRoot),
    full: args.includes('--full'),
    log,
  });
}

/**
 * `restore --from DIR [--shards n | --repos name=dir,...]`: with DATABASE_URL, into that
 * database; without, into a new local one under DATA_DIR (Postgres is started for the restore and
 * stopped after; `npm start` then runs on it).
 */
export async function restoreCommand(args: string[]): Promise<void> {
  const from = flag(args, '--from');
  if (!from) throw new Error('usage: restore --from DIR [--shards n | --repos name=dir,...]');
  const repos = flag(args, '--repos');
  const { dataDir, reposRoot } = localPaths();
  let shards: ShardRoots;
  if (repos) shards = reposFlag(repos);
  else {
    const count = Number(flag(args, '--shards') ?? '1');
    if (!Number.isInteger(count) || count < 1) throw new Error('--shards must be a whole number of at least 1');
    shards = { default: reposRoot };
    for (let n = 2; n <= count; n++) shards[`shard${n}`] = `${reposRoot}-shard${n}`;
  }
  if (process.env.DATABASE_URL) {
    await restore({ from: resolve(from), databaseUrl: process.env.DATABASE_URL, shards, log });
    return;
  }
  const launcher = readState(dataDir);
  if (launcher && launcherAlive(launcher.pid)) {
    throw new Error(`a stack (launcher pid ${launcher.pid}) runs on ${dataDir}: restore onto a new DATA_DIR`);
  }
  const pg = await startPostgres({
    dir: join(dataDir, 'postgres'),
    port: Number(process.env.LOCAL_POSTGRES_PORT ?? 15432),
    log,
    durable: true,
  });
  try {
    await restore({ from: resolve(from), databaseUrl: pg.url, shards, log });
  } finally {
    await pg.stop();
  }
  log(
    `restored into ${dataDir}: start it with npm start${Object.keys(shards).length > 1 ? ` -- --shards ${Object.keys(shards).length}` : ''}`,
  );
}
