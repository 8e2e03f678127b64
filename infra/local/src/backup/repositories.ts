import { shardRead } from '@hub/common';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { capture, fileEntry, type FileEntry } from './files';

/** What a backup knows of one repository: its refs, and the bundles that hold their objects. */
export interface RepositoryEntry {
  projectId: number;
  /** The shard (GIT_WORKER_SHARDS' name) it was on. */
  shard: string;
  /** The branch HEAD names, e.g. refs/heads/master. */
  head: string;
  /** Every ref and the object it names, exactly as restored. */
  refs: Record<string, string>;
  /**
   * Oldest first: a full bundle, then the incremental ones of later backups, each needing the
   * objects of those before it. Empty for a repository without refs.
   */
  bundles: FileEntry[];
}

// One pack thread: a backup runs beside the system it copies, and must not take every core.
const GIT = ['-c', 'safe.directory=*', '-c', 'pack.threads=1', '-c', 'core.quotepath=false'];
const git = (repo: string, args: string[], input?: string, env: Record<string, string> = {}) =>
  capture('git', [...GIT, ...args], { cwd: repo, input, env: { ...process.env, ...env, GIT_DIR: repo } });

/** The project ids of the repositories under a shard's REPOS_ROOT (`<id>.git`; half-made ones are skipped). */
export function repositoriesOn(root: string): number[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((name) => /^([1-9]\d*)\.git$/.exec(name)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number)
    .filter((id) => existsSync(join(root, `${id}.git`, 'HEAD')))
    .sort((a, b) => a - b);
}

async function refsOf(repo: string): Promise<Record<string, string>> {
  const out = await git(repo, ['for-each-ref', '--format=%(objectname) %(refname)']);
  return Object.fromEntries(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [sha, ref] = line.split(' ');
        return [ref, sha];
      }),
  );
}

const sameRefs = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([ref, sha]) => b[ref] === sha);

/**
 * Bundles one repository into `setRoot/path`: everything when there is no `previous` entry, else
 * only the objects its tips did not reach (negative refs, as gitaly-backup's incremental
 * backups). An unchanged repository gets no new file: its entry points at the earlier bundles.
 */
export async function backupRepository(options: {
  repo: string;
  projectId: number;
  shard: string;
  setRoot: string;
  path: string;
  previous?: RepositoryEntry;
}): Promise<RepositoryEntry> {
  const { repo, projectId, shard, setRoot, path, previous } = options;
  const head = (await git(repo, ['symbolic-ref', 'HEAD'])).trim();
  const before = await refsOf(repo);
  const entry = { projectId, shard, head };
  if (Object.keys(before).length === 0) return { ...entry, refs: {}, bundles: [] };
  if (previous && sameRefs(before, previous.refs)) return { ...entry, refs: before, bundles: previous.bundles };
  // Tips of the previous backup that are still here (a deleted branch's commits may be gone).
  const negatives: string[] = [];
  for (const sha of new Set(Object.values(previous?.refs ?? {}))) {
    if (
      await git(repo, ['cat-file', '-e', sha]).then(
        () => true,
        () => false,
      )
    )
      negatives.push(sha);
  }
  const out = join(setRoot, path);
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  try {
    await git(
      repo,
      ['bundle', 'create', '--quiet', partial, '--stdin', '--all'],
      negatives.map((sha) => `^${sha}\n`).join(''),
    );
  } catch (error) {
    // Every tip was already in the earlier bundles (a branch made at, or moved back to, a commit
    // they hold): nothing new to write, the refs alone changed.
    if (previous && /empty bundle/i.test((error as Error).message)) {
      return { ...entry, refs: before, bundles: previous.bundles };
    }
    throw error;
  }
  renameSync(partial, out);
  // The refs as bundled: a push between listing and bundling moved some on. A ref the negatives
  // left out of the bundle names an object of an earlier bundle, as listed.
  const bundled = Object.fromEntries(
    (await git(repo, ['bundle', 'list-heads', out]))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string])
      .filter(([, ref]) => ref.startsWith('refs/'))
      .map(([sha, ref]) => [ref, sha]),
  );
  const refs = { ...before, ...bundled };
  return { ...entry, refs, bundles: [...(previous?.bundles ?? []), await fileEntry(setRoot, path)] };
}

/**
 * Makes the bare repository `repo` from an entry: its bundles' objects, oldest first, then
 * exactly its refs and HEAD, checked for every object they reach. Built beside its place and
 * renamed, as the git worker makes repositories, so a failure leaves nothing half made.
 */
export async function restoreRepository(entry: RepositoryEntry, setRoot: string, repo: string): Promise<void> {
  const building = `${repo}.restoring`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(dirname(repo), { recursive: true });
  try {
    await capture('git', [...GIT, 'init', '--bare', '--quiet', '--', building]);
    for (const bundle of entry.bundles) await git(building, ['bundle', 'unbundle', join(setRoot, bundle.path)]);
    const updates = Object.entries(entry.refs).map(([ref, sha]) => `create ${ref} ${sha}\n`);
    if (updates.length) await git(building, ['update-ref', '--stdin'], updates.join(''));
    await git(building, ['symbolic-ref', 'HEAD', entry.head]);
    if (updates.length) await git(building, ['rev-list', '--objects', '--all', '--quiet']);
    renameSync(building, repo);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`repository of project ${entry.projectId}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Brings `mirror` (a bare repository kept in the backup set) up to date with a project's
 * repository on a shard reached over its git HTTP side, as another shard reads a fork's source:
 * with read-only claims signed with PRINCIPAL_SECRET. Only new objects cross the network. False
 * when the shard has no such repository (its project was deleted meanwhile).
 */
export async function mirrorRepository(options: {
  httpUrl: string;
  mirror: string;
  projectId: number;
  defaultBranch: string;
  secret: string;
}): Promise<boolean> {
  const { mirror } = options;
  if (!existsSync(join(mirror, 'HEAD'))) {
    mkdirSync(dirname(mirror), { recursive: true });
    await capture('git', [...GIT, 'init', '--bare', '--quiet', '--', mirror]);
  }
  const { url, env } = shardRead(options);
  try {
    await git(mirror, ['fetch', '--quiet', '--prune', '--no-tags', url, '+refs/*:refs/*'], undefined, env);
  } catch (error) {
    if (/\b404\b|not found/i.test((error as Error).message)) return false;
    throw error;
  }
  await git(mirror, ['symbolic-ref', 'HEAD', `refs/heads/${options.defaultBranch}`]);
  return true;
}
