import { authorize } from '@hub/common';
import { gitDomainError, gitFailureOf } from '@hub/protos';
import { findMergeRequestById, isMerging } from '../db/merge-requests';
import { isWorkInProgress } from '../event-attributes';
import type { MergeRequestResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

export const createMergeRequestResolvers = ({ sql, mergeRequests, git }: ResolverDeps): MergeRequestResolvers => {
  const merge = git.unary('merge');
  return {
    // Notes asks for projectId through references; the merge request must be one the viewer may read.
    __resolveReference: async (reference, { principal }) => {
      const mr = await findMergeRequestById(sql, (reference as { id: number }).id);
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
