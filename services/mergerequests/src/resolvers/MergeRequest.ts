import { authorize, can, isGlobalIdReference, publicEnum, referencedDatabaseId, toGlobalId } from '@hub/common';
import { gitDomainError, gitFailureOf } from '@hub/protos';
import { findMergeRequestById, findMergeRequestByIid, isMerging, type MergeRequestRow } from '../db/merge-requests';
import { isWorkInProgress } from '../event-attributes';
import type { MergeRequestResolvers, MergeRequestState } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** A merge request's state as REST v3 writes it: the stored one, or locked while a merge runs. */
type V3State = MergeRequestRow['state'] | 'locked';

/** GitLab's locked state: an open merge request whose merge is running. */
export const v3StateOf = (mr: MergeRequestRow): V3State =>
  isMerging(mr) && (mr.state === 'opened' || mr.state === 'reopened') ? 'locked' : mr.state;

/** The public schema's MergeRequestState for each of v3's. */
const mergeRequestState = publicEnum<V3State, MergeRequestState>('MergeRequestState', {
  opened: 'OPENED',
  closed: 'CLOSED',
  merged: 'MERGED',
  reopened: 'REOPENED',
  locked: 'LOCKED',
});

/** The public state, including LOCKED while a merge runs. */
export const stateOf = (mr: MergeRequestRow): MergeRequestState => mergeRequestState(v3StateOf(mr));

export const createMergeRequestResolvers = ({ sql, mergeRequests, git }: ResolverDeps): MergeRequestResolvers => {
  const merge = git.unary('merge');
  return {
    // Three references. `{ databaseId }`: notes asks for projectId; the merge request must be one the
    // viewer may see the project of (NOT_FOUND otherwise). `{ projectId, iid }`: Query.mergeRequest
    // (projects) names one by its target project and number, authorized as Project.mergeRequest.
    // `{ id }`, a global id from node(id:): Project.mergeRequest's rule too (the read behind REST v3's
    // GET /projects/:id/merge_requests/:merge_request_id), but null for anything the viewer may not
    // read, so a merge request they may not see answers as one that does not exist.
    __resolveReference: async (representation, { principal }) => {
      const reference = representation as { id?: unknown; databaseId?: number; projectId?: number; iid?: number };
      if (isGlobalIdReference(reference)) {
        const id = referencedDatabaseId('MergeRequest', reference);
        if (id === null) return null;
        const mr = await findMergeRequestById(sql, id);
        if (!mr) return null;
        const access = await mergeRequests.accessOf(principal, mr.projectId);
        return access && can(access, principal, 'read_project') && can(access, principal, 'read_merge_request')
          ? mr
          : null;
      }
      const { databaseId, projectId, iid } = reference;
      if (databaseId === undefined) {
        authorize(await mergeRequests.accessOf(principal, projectId!), principal, 'read_merge_request');
        return (await findMergeRequestByIid(sql, projectId!, iid!)) ?? null;
      }
      const mr = await findMergeRequestById(sql, databaseId);
      if (!mr) return null;
      authorize(await mergeRequests.accessOf(principal, mr.projectId), principal, 'read_project');
      return mr;
    },
    id: (mr) => toGlobalId('MergeRequest', mr.id),
    databaseId: (mr) => mr.id,
    targetProjectId: (mr) => mr.projectId,
    state: stateOf,
    v3State: v3StateOf,
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
