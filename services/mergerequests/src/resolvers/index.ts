import { authorize, pageWindow, requireUser } from '@hub/common';
import { gitDomainError, gitFailureOf, promised, type GitClients } from '@hub/protos';
import { findMergeRequest, findMergeRequestById, listMergeRequests } from '../db/merge-requests';
import type { Resolvers } from '../generated/graphql';
import { isWorkInProgress } from '../event-attributes';
import type { MergeRequestsService } from '../merge-requests-service';
import type { Sql } from '@hub/common';

export interface ResolverDeps {
  sql: Sql;
  mergeRequests: MergeRequestsService;
  git: GitClients;
}

const STATES: Record<string, string[] | null> = { OPENED: ['opened', 'reopened'], CLOSED: ['closed'], MERGED: ['merged'], ALL: null };

export const createResolvers = ({ sql, mergeRequests, git }: ResolverDeps): Resolvers => {
  const merge = promised(git.merge);
  const readable = async (principal: Parameters<MergeRequestsService['accessOf']>[0], projectId: number) =>
    authorize(await mergeRequests.accessOf(principal, projectId), principal, 'read_project');

  return {
    Project: {
      __resolveReference: (reference) => ({ id: (reference as { id: number }).id }),
      mergeRequests: async (project, args, { principal }) => {
        await readable(principal, project.id);
        const { rows, total } = await listMergeRequests(
          sql,
          {
            projectId: project.id,
            iid: args.iid,
            states: STATES[args.state ?? 'ALL'] ?? null,
            orderBy: args.orderBy === 'UPDATED_AT' ? 'updated_at' : 'created_at',
            sort: args.sort === 'ASC' ? 'asc' : 'desc',
          },
          pageWindow(args.page, args.perPage),
        );
        return { nodes: rows, total };
      },
      mergeRequest: async (project, { id }, { principal }) => {
        await readable(principal, project.id);
        return (await findMergeRequest(sql, project.id, id)) ?? null;
      },
    },
    MergeRequest: {
      // Notes asks for projectId through references; the merge request must be one the viewer may read.
      __resolveReference: async (reference, { principal }) => {
        const mr = await findMergeRequestById(sql, (reference as { id: number }).id);
        if (!mr) return null;
        await readable(principal, mr.projectId);
        return mr;
      },
      targetProjectId: (mr) => mr.projectId,
      author: (mr) => ({ id: mr.authorId }),
      assignee: (mr) => (mr.assigneeId === null ? null : { id: mr.assigneeId }),
      workInProgress: (mr) => isWorkInProgress(mr.title),
      labels: () => [],
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
    },
    Mutation: {
      createMergeRequest: (_p, { projectId, input }, { principal }) => {
        requireUser(principal);
        return mergeRequests.create(principal, projectId, input);
      },
      updateMergeRequest: (_p, { projectId, id, input }, { principal }) => {
        requireUser(principal);
        return mergeRequests.update(principal, projectId, id, input);
      },
      acceptMergeRequest: (_p, { projectId, id, mergeCommitMessage }, { principal }) => {
        requireUser(principal);
        return mergeRequests.accept(principal, projectId, id, mergeCommitMessage);
      },
    },
  };
};
