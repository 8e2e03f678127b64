import { authorize } from '@hub/common';
import { gitDomainError, gitFailureOf } from '@hub/protos';
import { findMergeRequestById, findMergeRequestByIid, isMerging } from '../db/merge-requests';
import { isWorkInProgress } from '../event-attributes';
import type { MergeRequestResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

export const createMergeRequestResolvers = ({ sql, mergeRequests, git }: ResolverDeps): MergeRequestResolvers => {
  const merge = git.unary('merge');
  return {
    // Notes asks for projectId through references; the merge request must be one the viewer may read.
    // Query.mergeRequest (projects) names one by its target project and number instead, for a
    // viewer who may see the project; reading merge requests is authorized as Project.mergeRequest.
    __resolveReference: async (reference, { principal }) => {
      const { id, projectId, iid } = reference as { id?: number; projectId?: number; iid?: number };
      if (id === undefined) {
        authorize(await mergeRequests.accessOf(principal, projectId!), principal, 'read_merge_request');
        return (await findMergeRequestByIid(sql, projectId!, iid!)) ?? null;
      }
      const mr = await findMergeRequestById(sql, id);
      if (!mr) return null;
      authorize(await mergeRequests.accessOf(principal, mr.projectId), principal, 'read_project');
      return mr;
    },
    targetProjectId: (mr) => mr.projectId,
    // GitLab's locked state: an open merge request whose merge is running.
    state: (mr) => (isMerging(mr) && (mr.state === 'opened' || mr.state === 'reopened') ? 'locked' : mr.state),
    author: (mr) => ({ id: mr.authorId }),
    assignee: (mr) => (mr.assigneeId === null ? null : { id: mr.assigneeId }),
    workInProgress: (mr) => isWorkInProgress(mr.title),
    labels: (mr) => mr.labels,
    // The notes subgraph completes it (and answers null for a milestone the viewer may not see).
    milestone: (mr) => (mr.milestoneId === null ? null : { id: mr.milestoneId }),
    changes: async (mr) => {
      try {
        const { diffs } = await merge.MergeRequestDiffs({
          repository: { projectId: mr.projectId },
          source: mr.sourceBranch,
          target: mr.targetBranch,
          sourceRepository: { projectId: mr.sourceProjectId },
        });
        return diffs.map((d) => ({ ...d, aMode: d.aMode || null, bMode: d.bMode || null }));
      } catch (error) {
        // A branch deleted since (e.g. after the merge) leaves nothing to show.
        if (gitFailureOf(error)) return [];
        throw gitDomainError(error);
      }
    },
  };
};
