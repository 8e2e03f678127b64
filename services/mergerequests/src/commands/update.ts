import {
  authorizeIssuableChange,
  badRequest,
  can,
  guardProjectWrite,
  invalid,
  isUniqueViolation,
  labelNames,
  unprocessable,
  type Principal,
} from '@hub/common';
import * as db from '../db/merge-requests';
import type { MergeRequestRow } from '../db/merge-requests';
import { accept } from './accept';
import { duplicateMessage, mergeRequestNotFound, OPEN_STATES, SAME_BRANCH, type CommandKit } from './kit';

/** Changes to a merge request; null or absent fields keep their value. */
export interface MergeRequestChanges {
  title?: string | null;
  description?: string | null;
  targetBranch?: string | null;
  assigneeId?: number | null;
  /** close, reopen or merge; an empty one changes no state, anything else is refused (state_event "is invalid"). */
  stateEvent?: string | null;
  labels?: readonly string[] | null;
  milestoneId?: number | null;
  /** Refused when not empty: a merge request keeps its source branch. */
  sourceBranch?: string | null;
}

/** The spec's state table: close from opened, reopen from closed (state reopened), merge as accept. */
export const update =
  (kit: CommandKit) =>
  async (principal: Principal, projectId: number, id: number, input: MergeRequestChanges): Promise<MergeRequestRow> => {
    const { sql, metadata, branchExists, event, findOr404, refuseOpenDuplicate } = kit;
    const { mr, access } = await findOr404(principal, projectId, id);
    authorizeIssuableChange(access, principal, mr, 'update_merge_request');
    // GitLab's message exactly, once the merge request is found and the caller may change it.
    if (input.sourceBranch != null && input.sourceBranch !== '') throw badRequest('Source branch cannot be changed');
    const labels = input.labels == null ? null : labelNames(input.labels);
    if (input.stateEvent && !['close', 'reopen', 'merge'].includes(input.stateEvent))
      throw invalid({ state_event: ['is invalid'] });
    const retarget = input.targetBranch != null && input.targetBranch !== mr.targetBranch ? input.targetBranch : null;
    // The model's validate_branches, as on create: never into its own source branch.
    if (retarget !== null && mr.sourceProjectId === mr.projectId && retarget === mr.sourceBranch)
      throw unprocessable(SAME_BRANCH);
    if (retarget !== null && !(await branchExists(projectId, retarget)))
      throw invalid({ target_branch: ['does not exist'] });
    const changes: Partial<MergeRequestRow> = {};
    if (input.title != null) changes.title = input.title;
    if (input.description != null) changes.description = input.description;
    if (retarget !== null) changes.targetBranch = retarget;
    if (input.assigneeId != null) changes.assigneeId = input.assigneeId;
    if (labels !== null && labels.join('\n') !== mr.labels.join('\n')) changes.labels = labels;
    /** The state the input moves a merge request in `state` to, and the action that is. */
    // A merge request being merged is not closed under the merge (GitLab's locked state).
    const transition = (row: MergeRequestRow) =>
      input.stateEvent === 'close' && OPEN_STATES.includes(row.state) && !db.isMerging(row)
        ? ({ state: 'closed', action: 'closed' } as const)
        : input.stateEvent === 'reopen' && row.state === 'closed'
          ? ({ state: 'reopened', action: 'reopened' } as const)
          : ({ state: undefined, action: 'updated' } as const);
    let { state, action } = transition(mr);
    if (state) changes.state = state;
    // Reopened or moved onto the branches of another open merge request: refused before notes
    // makes any label; the open-pair key still settles concurrent changes below.
    const duplicate = (titles: string[]) =>
      retarget !== null ? duplicateMessage(titles) : 'Cannot Reopen: This merge request already exists';
    const opensPair = OPEN_STATES.includes(changes.state ?? mr.state) && (action === 'reopened' || retarget !== null);
    if (opensPair) await refuseOpenDuplicate({ ...mr, ...changes }, mr.id, duplicate);
    // filter_params: below admin_merge_request (Developer) a milestone is not taken.
    const milestoneId = await metadata.prepare(
      projectId,
      changes.labels ?? [],
      can(access, principal, 'admin_merge_request') ? input.milestoneId : undefined,
    );
    if (milestoneId !== undefined && milestoneId !== mr.milestoneId) changes.milestoneId = milestoneId;
    let updated = mr;
    if (Object.keys(changes).length) {
      updated = await sql
        .begin(async (tx) => {
          await guardProjectWrite(tx, mr.projectId);
          // Concurrent changes take turns on the row; the state moves from where the one
          // before left it: closed many times at once, closed (and noted) once; never a merged
          // one closed by a close that read it open.
          const current = await db.findMergeRequest(tx, projectId, mr.id, true);
          if (!current) throw mergeRequestNotFound();
          ({ state, action } = transition(current));
          if (state) changes.state = state;
          else delete changes.state;
          if (Object.keys(changes).length === 0) return current;
          const row = await db.updateMergeRequest(tx, mr.id, changes);
          await event(tx, action, principal, row);
          return row;
        })
        .catch(async (error) => {
          // Another merge request opened on these branches meanwhile (GitLab's validate_branches message).
          if (isUniqueViolation(error)) await refuseOpenDuplicate({ ...mr, ...changes }, mr.id, duplicate, true);
          throw error;
        });
    }
    if (input.stateEvent === 'merge') return accept(kit)(principal, projectId, id, null);
    return updated;
  };
