import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createTag } from './Mutation/createTag';
import { protectBranch, unprotectBranch } from './Mutation/protectBranch';
import { projectResolvers } from './Project';
import { createRepositoryResolvers } from './Repository';
import { branchResolvers, commitResolvers } from './values';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  Mutation: {
    protectBranch: protectBranch(deps),
    unprotectBranch: unprotectBranch(deps),
    createTag: createTag(deps),
  },
  Project: projectResolvers,
  Repository: createRepositoryResolvers(deps),
  Branch: branchResolvers,
  Commit: commitResolvers,
});
