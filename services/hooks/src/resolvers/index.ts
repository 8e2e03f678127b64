import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createHookResolvers } from './Hook';
import { hookDeliveryAttemptResolvers, hookDeliveryResolvers } from './HookDelivery';
import { createMutationResolvers } from './Mutation';
import { createProjectResolvers } from './Project';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  Project: createProjectResolvers(deps),
  Hook: createHookResolvers(deps),
  HookDelivery: hookDeliveryResolvers,
  HookDeliveryAttempt: hookDeliveryAttemptResolvers,
  Mutation: createMutationResolvers(deps),
});
