import type { MergeServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, resolveCommit, runGit } from '../git/run';
import { createTurns } from '../git/turns';
import { signatureText, validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { mergeSource, mergeTree } from './merge-source';

const ATTEMPTS = 3;

/**
 * Merges into one branch take turns: otherwise each of many concurrent accepts computes its merge
 * on the same tip, all but one find the branch moved, and after ATTEMPTS rounds the last ones
 * give up as "cannot be merged" without any conflict (12 accepted at once: 7 refused).
 */
const mergeTurns = createTurns();

/**
 * A merge commit of source into target, made without a working tree (merge-tree, commit-tree),
 * then `target` is moved only if it has not moved meanwhile (update-ref with the old value);
 * if it has, the merge is computed again on the new tip.
 */
export const MergeBranch = (deps: WorkerDeps): MergeServiceHandlers['MergeBranch'] =>
  unary('MergeBranch', deps, async (request) => {
    const projectId = projectIdOf(request);
    const repo = existingRepo(deps.root, projectId);
    const targetRef = `refs/heads/${validateBranchName(request.target)}`;
    const source = await mergeSource(
      deps.root,
      repo,
      request.source,
      request.sourceRepository,
      projectId,
      deps.callers.secret,
    );
    const author = {
      name: signatureText(request.author?.name ?? '') || 'Hub',
      email: signatureText(request.author?.email ?? ''),
    };
    const env = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
    try {
      return await mergeTurns(`${repo}\0${targetRef}`, async () => {
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          const target = await resolveCommit(repo, targetRef, 'target');
          const { tree, conflicts } = await mergeTree(repo, target, source.sha);
          if (conflicts.length) throw gitError('MERGE_CONFLICT', 'the branches conflict');
          const message = request.message || `Merge branch '${request.source}' into '${request.target}'`;
          const commit = await runGit(repo, ['commit-tree', tree, '-p', target, '-p', source.sha, '-F', '-'], {
            input: message,
            env,
          });
          if (commit.code !== 0) throw new Error(`git commit-tree failed: ${commit.stderr.trim()}`);
          const commitId = commit.stdout.toString('utf8').trim();
          const moved = await runGit(repo, ['update-ref', '-m', 'merge', '--', targetRef, commitId, target]);
          if (moved.code === 0) return { commitId };
        }
        throw gitError('MERGE_CONFLICT', 'the branches conflict');
      });
    } finally {
      await source.release();
    }
  });
