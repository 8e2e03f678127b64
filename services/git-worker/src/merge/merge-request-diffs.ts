import type { MergeServiceHandlers } from '@hub/protos';
import { diffBetween } from '../diff/compare-refs';
import { existingRepo, resolveCommit, runGit } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { mergeSource } from './merge-source';

/** What a merge request changes: the diff from the merge base of target and source to source. */
export const MergeRequestDiffs = (deps: WorkerDeps): MergeServiceHandlers['MergeRequestDiffs'] =>
  unary('MergeRequestDiffs', deps, async (request) => {
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
      const base =
        (await runGit(repo, ['merge-base', '--end-of-options', target, source.sha])).stdout.toString('utf8').trim() ||
        target;
      const { diffs, timedOut } = await diffBetween(repo, base, source.sha, deps.compareTimeoutMs, deps.startGit);
      return { diffs, timedOut };
    } finally {
      await source.release();
    }
  });
