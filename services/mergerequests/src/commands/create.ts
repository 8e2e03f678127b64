import {
  authorize,
  can,
  guardProjectWrite,
  invalid,
  isUniqueViolation,
  labelNames,
  projectsLookup,
  unprocessable,
  type Principal,
} from '@hub/common';
import * as db from '../db/merge-requests';
import type { MergeRequestRow } from '../db/merge-requests';
import { duplicateMessage, NOT_A_FORK, SAME_BRANCH, type CommandKit } from './kit';

/** A new merge request, in the source project. */
export interface NewMergeRequest {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description?: string | null;
  assigneeId?: number | null;
  targetProjectId?: number | null;
  labels?: readonly string[] | null;
  milestoneId?: number | null;
}

export const create =
  (kit: CommandKit) =>
  async (principal: Principal, projectId: number, input: NewMergeRequest): Promise<MergeRequestRow> => {
    const { sql, deps, metadata, accessOf, branchExists, event, refuseOpenDuplicate } = kit;
    const access = authorize(await accessOf(principal, projectId), principal, 'create_merge_request');
    // GitLab checked the label names before anything else of the merge request.
    const labels = labelNames(input.labels ?? []);
    const targetProjectId = input.targetProjectId ?? projectId;
    // Labels and the milestone are the target project's, where the merge request lives: from a
    // fork, the milestone needs admin_merge_request there, not in the fork.
    let targetAccess = access;
    if (targetProjectId !== projectId) {
      targetAccess = authorize(await accessOf(principal, targetProjectId), principal, 'read_project');
      if (!targetAccess.mergeRequestsEnabled) throw unprocessable('Merge requests are disabled on the target project');
      // GitLab 7.14's MergeRequest#validate_fork: another project may only be targeted from its fork.
      const [source] = (await deps.projects.call(projectsLookup, { ids: [projectId] })).projects;
      if (source?.forkedFromProjectId !== targetProjectId) throw unprocessable(NOT_A_FORK);
    }
    if (targetProjectId === projectId && input.sourceBranch === input.targetBranch) {
      throw unprocessable(SAME_BRANCH);
    }
    const [sourceOk, targetOk] = await Promise.all([
      branchExists(projectId, input.sourceBranch),
      branchExists(targetProjectId, input.targetBranch),
    ]);
    if (!sourceOk || !targetOk) {
      throw invalid({
        ...(sourceOk ? {} : { source_branch: ['does not exist'] }),
        ...(targetOk ? {} : { target_branch: ['does not exist'] }),
      });
    }
    const pair = {
      projectId: targetProjectId,
      sourceProjectId: projectId,
      sourceBranch: input.sourceBranch,
      targetBranch: input.targetBranch,
    };
    // Before notes makes any label; the open-pair key still settles concurrent creates below.
    await refuseOpenDuplicate(pair, null, duplicateMessage);
    // add_labels_by_names: names the project has no label for become labels. filter_params: below
    // Developer on the target a milestone is not taken.
    const milestoneId = await metadata.prepare(
      targetProjectId,
      labels,
      can(targetAccess, principal, 'admin_merge_request') ? input.milestoneId : undefined,
    );
    return sql
      .begin(async (tx) => {
        await guardProjectWrite(tx, targetProjectId);
        const iid = await db.nextIid(tx, targetProjectId);
        const mr = await db.insertMergeRequest(tx, {
          ...pair,
          iid,
          title: input.title,
          description: input.description ?? null,
          authorId: principal.userId!,
          assigneeId: input.assigneeId ?? null,
          labels,
          milestoneId: milestoneId ?? null,
        });
        await event(tx, 'opened', principal, mr);
        return mr;
      })
      .catch(async (error) => {
        if (isUniqueViolation(error)) await refuseOpenDuplicate(pair, null, duplicateMessage, true);
        throw error;
      });
  };
