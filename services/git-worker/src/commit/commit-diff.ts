import type { CommitServiceHandlers } from '@hub/protos';
import { diffBetween } from '../diff/compare-refs';
import { gitError } from '../git/errors';
import { commitNamed } from '../git/objects';
import { existingRepo } from '../git/run';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** git's empty tree (built into git): what a root commit is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A commit's changes against its first parent, as compare shows diffs; the commit is read in the warm reader. */
export const CommitDiff = (deps: WorkerDeps): CommitServiceHandlers['CommitDiff'] =>
  unary('CommitDiff', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const commit = await commitNamed(deps.readers.get(repo), validateRef(request.ref, 'sha'));
    if (!commit) throw gitError('REF_NOT_FOUND', 'sha names no commit', 'sha');
    const parent = commit.parentIds[0] ?? EMPTY_TREE;
    const { diffs, timedOut } = await diffBetween(repo, parent, commit.id, deps.compareTimeoutMs, deps.startGit);
    return { commit, diffs, timedOut };
  });
