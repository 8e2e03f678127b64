import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { commitNamed } from '../git/objects';
import { existingRepo } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/**
 * A branch and its commit, resolved and read in the warm reader. A repository deleted meanwhile
 * answers as a branch not found; mergerequests, which asks before opening a merge request, checks
 * the project before calling the branch missing.
 */
export const FindBranch = (deps: WorkerDeps): RefServiceHandlers['FindBranch'] =>
  unary('FindBranch', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const name = validateBranchName(request.name);
    const commit = await commitNamed(deps.readers.get(repo), `refs/heads/${name}`);
    if (!commit) throw gitError('REF_NOT_FOUND', 'no such branch', 'branch');
    return { name, commit };
  });
