import type { RefServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { commitNamed } from '../git/objects';
import { existingRepo } from '../git/run';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** The commit a ref names, resolved and read in the warm reader. */
export const FindCommit = (deps: WorkerDeps): RefServiceHandlers['FindCommit'] =>
  unary('FindCommit', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const commit = await commitNamed(deps.readers.get(repo), validateRef(request.ref));
    if (!commit) throw gitError('REF_NOT_FOUND', 'ref names no commit', 'ref');
    return commit;
  });
