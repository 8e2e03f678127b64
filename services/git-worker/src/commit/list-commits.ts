import type { CommitServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { readCommitsFrom } from '../git/objects';
import { existingRepo, gitText } from '../git/run';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const MAX_PAGE = 100;

/**
 * One page of a ref's history, newest first (git log's order), and the count of all of it. The
 * ref resolves and the page's commits are read in the warm reader; the page is one walk through
 * the launcher, and the count comes from the per-commit cache: one git process per page, not four
 * forked from the worker.
 */
export const ListCommits = (deps: WorkerDeps): CommitServiceHandlers['ListCommits'] =>
  unary('ListCommits', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const reader = deps.readers.get(repo);
    const found = await reader.info(`${validateRef(request.ref, 'ref_name')}^{commit}`);
    if (!found) throw gitError('REF_NOT_FOUND', 'ref_name names no commit', 'ref_name');
    const limit = Math.min(Math.max(request.limit, 1), MAX_PAGE);
    const offset = Math.max(request.offset, 0);
    const [page, total] = await Promise.all([
      gitText(repo, ['rev-list', `--max-count=${limit}`, `--skip=${offset}`, '--end-of-options', found.oid], {
        start: deps.startGit,
      }),
      deps.historyLengths.of(repo, found.oid),
    ]);
    return { commits: await readCommitsFrom(reader, page.split('\n').filter(Boolean)), total };
  });
