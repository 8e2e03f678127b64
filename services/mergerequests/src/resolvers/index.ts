import { ownedNodes } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createMergeRequestResolvers } from './MergeRequest';
import { mergeRequestConnectionResolvers } from './merge-request-lists';
import { createMutationResolvers } from './Mutation';
import { createProjectResolvers } from './Project';

export type { ResolverDeps };

export function createResolvers(deps: ResolverDeps): Resolvers {
  const mergeRequest = createMergeRequestResolvers(deps);
  return {
    Project: createProjectResolvers(deps),
    MergeRequest: mergeRequest,
    Query: { mergeRequestNodes: ownedNodes('MergeRequest', mergeRequest.__resolveReference!) },
    Mutation: createMutationResolvers(deps),
    MergeRequestConnection: mergeRequestConnectionResolvers,
    // Stubs of other subgraphs' entities, held as `{ id }`: the schema shows that id as their `databaseId` key.
    User: { databaseId: (user) => user.id },
    Milestone: { databaseId: (milestone) => milestone.id },
  };
}
