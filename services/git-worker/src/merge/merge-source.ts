import { randomBytes } from 'node:crypto';
import { gitError } from '../git/errors';
import { remoteRepository } from '../git/remote';
import { existingRepo, resolveCommit, runGit } from '../git/run';
import { validateBranchName } from '../git/validate';

/**
 * The commit of `source` for a merge into `repo`: a branch of the same repository, or of a fork
 * (then fetched under a temporary ref, removed by `release`), on this disk or, when another shard
 * holds it (`remote_url`), over that shard's git HTTP.
 */
export async function mergeSource(
  root: string,
  repo: string,
  source: string,
  sourceRepository: { projectId: number; remoteUrl?: string } | null | undefined,
  targetProjectId: number,
  secret: string,
) {
  const branch = validateBranchName(source);
  const sourceProjectId = sourceRepository?.projectId;
  if (!sourceProjectId || sourceProjectId === targetProjectId) {
    return { sha: await resolveCommit(repo, `refs/heads/${branch}`, 'source'), release: async () => {} };
  }
  const remote = remoteRepository(secret, sourceRepository);
  const fork = remote ? remote.url : existingRepo(root, sourceProjectId);
  const temp = `refs/hub/merge-source/${randomBytes(8).toString('hex')}`;
  const fetched = await runGit(
    repo,
    ['fetch', '--quiet', '--no-tags', '--end-of-options', fork, `+refs/heads/${branch}:${temp}`],
    { env: remote?.env },
  );
  if (fetched.code !== 0) throw gitError('REF_NOT_FOUND', 'no such source branch', 'source');
  return {
    sha: await resolveCommit(repo, temp, 'source'),
    release: async () => void (await runGit(repo, ['update-ref', '-d', '--', temp])),
  };
}

/** `git merge-tree --write-tree`: the merged tree, or the conflicting paths. */
export async function mergeTree(
  repo: string,
  target: string,
  source: string,
): Promise<{ tree: string; conflicts: string[] }> {
  const result = await runGit(repo, [
    'merge-tree',
    '--write-tree',
    '--name-only',
    '--no-messages',
    '--end-of-options',
    target,
    source,
  ]);
  const lines = result.stdout.toString('utf8').split('\n').filter(Boolean);
  if (result.code === 0) return { tree: lines[0], conflicts: [] };
  if (result.code === 1) return { tree: lines[0], conflicts: lines.slice(1) };
  throw new Error(`git merge-tree failed: ${result.stderr.trim()}`);
}

/**
 * Runs `use` on the commits of the target branch and of the source branch in the target's
 * repository (`repo`), the source fetched for the call when a fork holds it and released after.
 */
export async function withTargetAndSource<T>(
  deps: { root: string; secret: string },
  projectId: number,
  request: {
    target: string;
    source: string;
    sourceRepository?: { projectId: number; remoteUrl?: string } | null;
  },
  use: (repo: string, target: string, source: string) => Promise<T>,
): Promise<T> {
  const repo = existingRepo(deps.root, projectId);
  const target = await resolveCommit(repo, `refs/heads/${validateBranchName(request.target)}`, 'target');
  const source = await mergeSource(deps.root, repo, request.source, request.sourceRepository, projectId, deps.secret);
  try {
    return await use(repo, target, source.sha);
  } finally {
    await source.release();
  }
}
