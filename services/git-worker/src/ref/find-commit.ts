import type { RefServiceHandlers } from '@hub/protos';
import { readCommits } from '../git/objects';
import { existingRepo, resolveCommit } from '../git/run';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

export const FindCommit = (deps: WorkerDeps): RefServiceHandlers['FindCommit'] =>
  unary('FindCommit', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const sha = await resolveCommit(repo, validateRef(request.ref));
    const [commit] = await readCommits(repo, [sha]);
    return commit;
  });
