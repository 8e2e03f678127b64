import {
  authorize,
  can,
  guardProjectWrite,
  methodNotAllowed,
  protectedBranches,
  unauthenticated,
  type Principal,
} from '@hub/common';
import { gitDomainError, gitFailureOf } from '@hub/protos';
import * as db from '../db/merge-requests';
import type { MergeRequestRow } from '../db/merge-requests';
import { isWorkInProgress } from '../event-attributes';
import { mergeRequestNotFound, OPEN_STATES, type CommandKit } from './kit';

/** GitLab 7.14's MergeRequest#merge_commit_message, used when the accept names none. */
const mergeCommitMessage = (
  mr: Pick<MergeRequestRow, 'sourceBranch' | 'targetBranch' | 'title' | 'description' | 'iid'>,
) =>
  `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\n${mr.description ?? ''}\n\nSee merge request !${mr.iid}`;

/**
 * Accepting needs push rights on the target branch: Master when it is protected, unless
 * Developers may push to it (GitLab's can_push_to_branch?; GitLab answered 401).
 */
async function authorizeMerge(kit: CommandKit, principal: Principal, mr: MergeRequestRow) {
  const { deps, accessOf } = kit;
  const access = authorize(await accessOf(principal, mr.projectId), principal, 'read_project');
  const { names, developersCanPush } = await deps.repository.call(protectedBranches, { projectId: mr.projectId });
  const masterOnly = names.includes(mr.targetBranch) && !developersCanPush.includes(mr.targetBranch);
  const ability = masterOnly ? 'push_code_to_protected_branches' : 'push_code';
  if (!can(access, principal, ability)) throw unauthenticated();
}

/**
 * Accepting in three steps, so that no transaction, connection or row lock is held while git
 * merges (which may fetch from another shard): claim the merge request (concurrent accepts find
 * it claimed or merged: 405), merge outside any transaction, then record the merge, or give the
 * claim back when git refused.
 */
export const accept =
  (kit: CommandKit) =>
  async (
    principal: Principal,
    projectId: number,
    id: number,
    message: string | null | undefined,
  ): Promise<MergeRequestRow> => {
    const { sql, deps, merge, event, findOr404 } = kit;
    const { mr: current } = await findOr404(principal, projectId, id);
    await authorizeMerge(kit, principal, current);
    const { mr, claim } = await sql.begin(async (tx) => {
      await guardProjectWrite(tx, projectId);
      const row = await db.findMergeRequest(tx, projectId, id, true);
      if (!row) throw mergeRequestNotFound();
      if (!OPEN_STATES.includes(row.state) || isWorkInProgress(row.title))
        throw methodNotAllowed('405 Method Not Allowed');
      const claimed = await db.claimForMerge(tx, row.id, db.MERGE_CLAIM_STALE_S);
      if (!claimed) throw methodNotAllowed('405 Method Not Allowed');
      return { mr: row, claim: claimed };
    });
    let commitId: string;
    try {
      ({ commitId } = await merge.MergeBranch({
        repository: { projectId: mr.projectId },
        source: mr.sourceBranch,
        target: mr.targetBranch,
        sourceRepository: { projectId: mr.sourceProjectId },
        message: message || mergeCommitMessage(mr),
        author: { name: principal.username ?? 'Hub', email: '' },
      }));
    } catch (error) {
      await db
        .releaseMergeClaim(sql, mr.id, claim)
        .catch((release) =>
          deps.logger.warn({ err: release, mergeRequest: mr.id }, 'merge claim not released; it goes stale'),
        );
      // Conflicts, or a branch gone since: either way GitLab's "cannot be merged".
      if (gitFailureOf(error)) throw methodNotAllowed('Branch cannot be merged');
      throw gitDomainError(error);
    }
    return sql.begin(async (tx) => {
      await guardProjectWrite(tx, projectId);
      const merged = await db.recordMerge(tx, mr.id, claim, commitId);
      // The claim went stale and another accept took it over: the merge request is theirs to record.
      if (!merged) throw methodNotAllowed('405 Method Not Allowed');
      await event(tx, 'merged', principal, merged);
      return merged;
    });
  };
