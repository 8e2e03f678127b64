import { authorize } from '@hub/common';
import { findMergeRequest } from '../db/merge-requests';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { mergeRequestList } from './merge-request-lists';

const STATES: Record<string, string[] | null> = {
  OPENED: ['opened', 'reopened'],
  CLOSED: ['closed'],
  MERGED: ['merged'],
  ALL: null,
};

export const createProjectResolvers = (deps: ResolverDeps): ProjectResolvers => {
  const { sql, mergeRequests } = deps;
  return {
    // Other subgraphs reference a project by its `databaseId` key; it is the project's `id` here.
    __resolveReference: (reference) => ({ id: reference.databaseId }),
    databaseId: (project) => project.id,
    // GitLab 7.14: authorize! :read_merge_request, so 403 when the project has merge requests disabled.
    mergeRequests: async (project, args, { principal }) => {
      authorize(await mergeRequests.accessOf(principal, project.id), principal, 'read_merge_request');
      return mergeRequestList(
        deps,
        {
          projectId: project.id,
          iid: args.iid,
          states: STATES[args.state ?? 'ALL'] ?? null,
          orderBy: args.orderBy === 'UPDATED_AT' ? 'updated_at' : 'created_at',
          sort: args.sort === 'ASC' ? 'asc' : 'desc',
        },
        args,
      );
    },
    mergeRequest: async (project, { id }, { principal }) => {
      authorize(await mergeRequests.accessOf(principal, project.id), principal, 'read_merge_request');
      return (await findMergeRequest(sql, project.id, id)) ?? null;
    },
  };
};
