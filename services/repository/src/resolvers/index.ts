import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createMutationResolvers } from './Mutation';
import { projectResolvers, queryResolvers } from './Project';
import { createRepositoryReadsResolvers, createRepositoryResolvers } from './Repository';
import {
  branchConnectionResolvers,
  commitConnectionResolvers,
  contributorConnectionResolvers,
  createCompareResolvers,
  tagConnectionResolvers,
  treeEntryConnectionResolvers,
} from './lists';
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
  Compare: createCompareResolvers(deps.cursors),
  BranchConnection: branchConnectionResolvers,
  TagConnection: tagConnectionResolvers,
  TreeEntryConnection: treeEntryConnectionResolvers,
  ContributorConnection: contributorConnectionResolvers,
  CommitConnection: commitConnectionResolvers,
});
