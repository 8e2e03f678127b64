import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { readCommits } from '../git/objects';
import { existingRepo, isEmptyRepo, resolveCommit, runGit, ZERO_OID as ZERO } from '../git/run';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** A new branch at a ref's commit; the zero old value keeps it from moving a branch that exists. */
export const CreateBranch = (deps: WorkerDeps): RefServiceHandlers['CreateBranch'] =>
  unary('CreateBranch', deps, async (request) => {
    const projectId = projectIdOf(request);
    const repo = existingRepo(deps.root, projectId);
    const name = validateRef(request.name, 'branch_name');
    const ref = `refs/heads/${name}`;
    const format = await runGit(repo, ['check-ref-format', ref]);
    if (format.code !== 0) throw gitError('INVALID_ARGUMENT', 'branch_name is invalid', 'branch_name');
    const sha = await resolveCommit(repo, validateRef(request.ref, 'ref'), 'ref');
    const wasEmpty = await isEmptyRepo(repo);
    const made = await runGit(repo, ['update-ref', '-m', 'branch created through the API', '--', ref, sha, ZERO]);
    if (made.code !== 0) throw gitError('ALREADY_EXISTS', 'the branch exists', 'branch_name');
    await deps.recordPush({
      projectId,
      repo,
      userId: request.pusher?.userId || null,
      username: request.pusher?.username || null,
      update: { before: ZERO, after: sha, ref },
      wasEmpty,
    });
    const [commit] = await readCommits(repo, [sha], deps.startGit);
    return { name, commit };
  });
