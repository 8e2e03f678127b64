import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createMutationResolvers } from './Mutation';
import { projectResolvers, queryResolvers } from './Project';
import { createRepositoryReadsResolvers, createRepositoryResolvers } from './Repository';
import { branchResolvers, commitResolvers, treeEntryResolvers } from './values';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  Query: queryResolvers,
  Mutation: createMutationResolvers(deps),
  Project: projectResolvers,
  Repository: createRepositoryResolvers(deps),
  RepositoryReads: createRepositoryReadsResolvers(deps),
  Branch: branchResolvers,
  Commit: commitResolvers,
  TreeEntry: treeEntryResolvers,
});
