import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, findCommit, runGit, ZERO_OID as ZERO } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** Removes a branch if it still points where it was read, and records the removal as a push. */
export const DeleteBranch = (deps: WorkerDeps): RefServiceHandlers['DeleteBranch'] =>
  unary('DeleteBranch', deps, async (request) => {
    const projectId = projectIdOf(request);
    const repo = existingRepo(deps.root, projectId);
    const ref = `refs/heads/${validateBranchName(request.name)}`;
    const sha = await findCommit(repo, ref);
    if (!sha) throw gitError('REF_NOT_FOUND', 'no such branch', 'branch');
    const removed = await runGit(repo, ['update-ref', '-m', 'branch deleted through the API', '-d', '--', ref, sha]);
    if (removed.code !== 0) {
      // A concurrent delete got there first: answered as any delete of a missing branch is.
      if (!(await findCommit(repo, ref))) throw gitError('REF_NOT_FOUND', 'no such branch', 'branch');
      throw gitError('CONCURRENT_UPDATE', 'the branch moved', 'branch');
    }
    await deps.recordPush({
      projectId,
      repo,
      userId: request.pusher?.userId || null,
      username: request.pusher?.username || null,
      update: { before: sha, after: ZERO, ref },
      wasEmpty: false,
    });
    return {};
  });
