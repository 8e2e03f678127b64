import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { readCommits } from '../git/objects';
import { existingRepo, findCommit } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

export const FindBranch = (deps: WorkerDeps): RefServiceHandlers['FindBranch'] =>
  unary('FindBranch', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const name = validateBranchName(request.name);
    const oid = await findCommit(repo, `refs/heads/${name}`);
    if (!oid) throw gitError('REF_NOT_FOUND', 'no such branch', 'branch');
    const [commit] = await readCommits(repo, [oid]);
    return { name, commit };
  });
