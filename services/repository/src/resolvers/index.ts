import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createMutationResolvers } from './Mutation';
import { projectResolvers } from './Project';
import { createRepositoryResolvers } from './Repository';
import { branchResolvers, commitResolvers } from './values';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  Mutation: createMutationResolvers(deps),
  Project: projectResolvers,
  Repository: createRepositoryResolvers(deps),
  Branch: branchResolvers,
  Commit: commitResolvers,
});
