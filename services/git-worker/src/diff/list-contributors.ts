import type { DiffServiceHandlers } from '@hub/protos';
import { existingRepo } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/**
 * Authors of the default branch's history with their commit, addition and deletion counts, most
 * commits first. HEAD is resolved in the warm reader; the counts come from the per-commit cache.
 */
export const ListContributors = (deps: WorkerDeps): DiffServiceHandlers['ListContributors'] =>
  unary('ListContributors', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    // An empty repository, or HEAD naming a branch that does not exist yet: nobody contributed.
    const head = await deps.readers.get(repo).info('HEAD^{commit}');
    if (!head) return { contributors: [] };
    try {
      return { contributors: await deps.contributors.of(repo, head.oid) };
    } catch (error) {
      // As before: a history git could not walk (or not in time) lists nobody, and is not cached.
      deps.logger.warn({ err: error, repo }, 'contributors could not be counted');
      return { contributors: [] };
    }
  });
