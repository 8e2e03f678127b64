import { pageWindow, requireUser } from '@hub/common';
import { listIssues } from '../db/issues';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { ISSUE_ORDER, ISSUE_STATES } from './Project';

export const createQueryResolvers = ({ sql }: ResolverDeps): QueryResolvers => ({
  // GitLab 7.14's current_user.issues: every issue the user opened, whatever project it is in.
  viewerIssues: async (_parent, args, { principal }) => {
    const authorId = requireUser(principal);
    const { rows, total } = await listIssues(
      sql,
      { authorId, states: ISSUE_STATES[args.state ?? 'ALL'] ?? null, labels: args.labels ?? [], orderBy: ISSUE_ORDER[args.orderBy ?? 'CREATED_AT'], sort: args.sort === 'ASC' ? 'asc' : 'desc' },
      pageWindow(args.page, args.perPage),
    );
    return { nodes: rows, total };
  },
});
