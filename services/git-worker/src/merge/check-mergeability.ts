import type { MergeServiceHandlers } from '@hub/protos';
import { existingRepo, resolveCommit } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { mergeSource, mergeTree } from './merge-source';

export const CheckMergeability = (deps: WorkerDeps): MergeServiceHandlers['CheckMergeability'] =>
  unary('CheckMergeability', deps, async (request) => {
    const projectId = projectIdOf(request);
    const repo = existingRepo(deps.root, projectId);
    const target = await resolveCommit(repo, `refs/heads/${validateBranchName(request.target)}`, 'target');
    const source = await mergeSource(
      deps.root,
      repo,
      request.source,
      request.sourceRepository,
      projectId,
      deps.callers.secret,
    );
    try {
      const { conflicts } = await mergeTree(repo, target, source.sha);
      return { mergeable: conflicts.length === 0, conflicts };
    } finally {
      await source.release();
    }
  });
