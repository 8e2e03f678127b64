import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, runGit } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const ZERO = '0'.repeat(40);

/** Removes a branch if it still points where it was read, and records the removal as a push. */
export const DeleteBranch = (deps: WorkerDeps): RefServiceHandlers['DeleteBranch'] =>
  unary('DeleteBranch', deps, async (request) => {
    const projectId = projectIdOf(request);
    const repo = existingRepo(deps.root, projectId);
    const ref = `refs/heads/${validateBranchName(request.name)}`;
    const tip = await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', ref]);
    const sha = tip.stdout.toString('utf8').trim();
    if (tip.code !== 0 || !sha) throw gitError('REF_NOT_FOUND', 'no such branch', 'branch');
    const removed = await runGit(repo, ['update-ref', '-m', 'branch deleted through the API', '-d', '--', ref, sha]);
    if (removed.code !== 0) throw gitError('CONCURRENT_UPDATE', 'the branch moved', 'branch');
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
