import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createMergeRequestResolvers } from './MergeRequest';
import { createMutationResolvers } from './Mutation';
import { createProjectResolvers } from './Project';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  Project: createProjectResolvers(deps),
  MergeRequest: createMergeRequestResolvers(deps),
  Mutation: createMutationResolvers(deps),
});
