import type { RefServiceHandlers } from '@hub/protos';
import { readCommits } from '../git/objects';
import { existingRepo } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { listRefs } from './list-refs';

export const ListBranches = (deps: WorkerDeps): RefServiceHandlers['ListBranches'] =>
  unary('ListBranches', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const refs = await listRefs(repo, 'refs/heads');
    const commits = new Map((await readCommits(repo, refs.map((r) => r.oid))).map((c) => [c.id, c]));
    return { branches: refs.map((r) => ({ name: r.name, commit: commits.get(r.oid) ?? null })) };
  });
