import type { MergeServiceHandlers } from '@hub/protos';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { mergeTree, withTargetAndSource } from './merge-source';

export const CheckMergeability = (deps: WorkerDeps): MergeServiceHandlers['CheckMergeability'] =>
  unary('CheckMergeability', deps, (request) =>
    withTargetAndSource(
      { root: deps.root, secret: deps.callers.secret },
      projectIdOf(request),
      request,
      async (repo, target, source) => {
        const { conflicts } = await mergeTree(repo, target, source);
        return { mergeable: conflicts.length === 0, conflicts };
      },
    ),
  );
