import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import {
  countIssues,
  issueOrdering,
  listIssues,
  listIssuesKeyset,
  type IssueFilter,
  type IssueRow,
} from '../db/issues';
import type { IssueConnectionResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** An issue list as IssueConnection resolves it (common/connections.ts). */
export type IssueConnectionParent = ConnectionParent<IssueRow>;

export const issueList = (
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  filter: IssueFilter,
  args: ListArgs,
) =>
  pagedList(cursors, args, {
    ordering: issueOrdering(filter),
    byNumber: (window) => listIssues(sql, filter, window),
    byKeyset: (window) => listIssuesKeyset(sql, filter, window),
    count: () => countIssues(sql, filter),
  });

export const issueConnectionResolvers: IssueConnectionResolvers = connectionResolvers;
