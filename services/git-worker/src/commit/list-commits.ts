import type { CommitServiceHandlers } from '@hub/protos';
import { readCommits } from '../git/objects';
import { existingRepo, gitText, resolveCommit } from '../git/run';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const MAX_PAGE = 100;

/** One page of a ref's history, newest first (git log's order), and the count of all of it. */
export const ListCommits = (deps: WorkerDeps): CommitServiceHandlers['ListCommits'] =>
  unary('ListCommits', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const tip = await resolveCommit(repo, validateRef(request.ref, 'ref_name'), 'ref_name');
    const limit = Math.min(Math.max(request.limit, 1), MAX_PAGE);
    const offset = Math.max(request.offset, 0);
    const [page, count] = await Promise.all([
      gitText(repo, ['rev-list', `--max-count=${limit}`, `--skip=${offset}`, '--end-of-options', tip]),
      gitText(repo, ['rev-list', '--count', '--end-of-options', tip]),
    ]);
    const commits = await readCommits(repo, page.split('\n').filter(Boolean));
    return { commits, total: Number(count.trim()) };
  });
