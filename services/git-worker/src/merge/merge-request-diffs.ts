import type { MergeServiceHandlers } from '@hub/protos';
import { diffBetween } from '../diff/compare-refs';
import { runGit } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { withTargetAndSource } from './merge-source';

/** What a merge request changes: the diff from the merge base of target and source to source. */
export const MergeRequestDiffs = (deps: WorkerDeps): MergeServiceHandlers['MergeRequestDiffs'] =>
  unary('MergeRequestDiffs', deps, (request) =>
    withTargetAndSource(
      { root: deps.root, secret: deps.callers.secret },
      projectIdOf(request),
      request,
      async (repo, target, source) => {
        const base =
          (await runGit(repo, ['merge-base', '--end-of-options', target, source])).stdout.toString('utf8').trim() ||
          target;
        const { diffs, timedOut } = await diffBetween(repo, base, source, deps.compareTimeoutMs, deps.startGit);
        return { diffs, timedOut };
      },
    ),
  );
