import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import {
  countMergeRequests,
  listMergeRequests,
  listMergeRequestsKeyset,
  mergeRequestOrdering,
  type ListFilter,
  type MergeRequestRow,
} from '../db/merge-requests';
import type { MergeRequestConnectionResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** A merge request list as MergeRequestConnection resolves it (common/connections.ts). */
export type MergeRequestConnectionParent = ConnectionParent<MergeRequestRow>;

export const mergeRequestList = (
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  filter: ListFilter,
  args: ListArgs,
) =>
  pagedList(cursors, args, {
    ordering: mergeRequestOrdering(filter),
    byNumber: (window) => listMergeRequests(sql, filter, window),
    byKeyset: (window) => listMergeRequestsKeyset(sql, filter, window),
    count: () => countMergeRequests(sql, filter),
  });

export const mergeRequestConnectionResolvers: MergeRequestConnectionResolvers = connectionResolvers;
