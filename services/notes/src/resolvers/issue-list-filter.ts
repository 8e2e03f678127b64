import type { IssueFilter } from '../db/issues';
import type { IssueOrder, IssueStateFilter, InputMaybe, SortDirection } from '../generated/graphql';

/** GitLab's opened filter took reopened issues too. */
const ISSUE_STATES: Record<IssueStateFilter, string[] | null> = {
  OPENED: ['opened', 'reopened'],
  CLOSED: ['closed'],
  ALL: null,
};
const ISSUE_ORDER: Record<IssueOrder, NonNullable<IssueFilter['orderBy']>> = {
  CREATED_AT: 'created_at',
  UPDATED_AT: 'updated_at',
};

/** The arguments every issue list takes (Project.issues, Query.viewerIssues), as the issues table filters. */
export function issueListFilter(args: {
  state?: InputMaybe<IssueStateFilter>;
  labels?: InputMaybe<readonly string[]>;
  orderBy?: InputMaybe<IssueOrder>;
  sort?: InputMaybe<SortDirection>;
}): Pick<IssueFilter, 'states' | 'labels' | 'orderBy' | 'sort'> {
  return {
    states: ISSUE_STATES[args.state ?? 'ALL'],
    labels: args.labels ? [...args.labels] : [],
    orderBy: ISSUE_ORDER[args.orderBy ?? 'CREATED_AT'],
    sort: args.sort === 'ASC' ? 'asc' : 'desc',
  };
}
