import type { RefServiceHandlers } from '@hub/protos';
import { readCommitsFrom } from '../git/objects';
import { existingRepo } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { listRefs } from './list-refs';

/** Branches by name with their commits, read in the warm reader. */
export const ListBranches = (deps: WorkerDeps): RefServiceHandlers['ListBranches'] =>
  unary('ListBranches', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const refs = await listRefs(repo, 'refs/heads', deps.startGit);
    const commits = new Map(
      (
        await readCommitsFrom(
          deps.readers.get(repo),
          refs.map((r) => r.oid),
        )
      ).map((c) => [c.id, c]),
    );
    return { branches: refs.map((r) => ({ name: r.name, commit: commits.get(r.oid) ?? null })) };
  });
