import { requireUser } from '@hub/common';
import { issueList } from './issue-lists';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { issueListFilter } from './issue-list-filter';

export const createQueryResolvers = (deps: ResolverDeps): QueryResolvers => ({
  // GitLab 7.14's current_user.issues: every issue the user opened, whatever project it is in.
  viewerIssues: async (_parent, args, { principal }) => {
    const authorId = requireUser(principal);
    return issueList(deps, { ...issueListFilter(args), authorId }, args);
  },
});
