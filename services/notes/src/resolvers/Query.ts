import { pageWindow, requireUser } from '@hub/common';
import { listIssues } from '../db/issues';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { issueListFilter } from './issue-list-filter';

export const createQueryResolvers = ({ sql }: ResolverDeps): QueryResolvers => ({
  // GitLab 7.14's current_user.issues: every issue the user opened, whatever project it is in.
  viewerIssues: async (_parent, args, { principal }) => {
    const authorId = requireUser(principal);
    const { rows, total } = await listIssues(
      sql,
      { ...issueListFilter(args), authorId },
      pageWindow(args.page, args.perPage),
    );
    return { nodes: rows, total };
  },
});
