import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { readCommits } from '../git/objects';
import { existingRepo, runGit } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

export const FindBranch = (deps: WorkerDeps): RefServiceHandlers['FindBranch'] =>
  unary('FindBranch', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const name = validateBranchName(request.name);
    const result = await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${name}^{commit}`]);
    const oid = result.stdout.toString('utf8').trim();
    if (result.code !== 0 || !oid) throw gitError('REF_NOT_FOUND', 'no such branch', 'branch');
    const [commit] = await readCommits(repo, [oid]);
    return { name, commit };
  });
