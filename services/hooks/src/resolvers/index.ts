import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createHookResolvers } from './Hook';
import { hookConnectionResolvers, hookDeliveryConnectionResolvers, systemHookConnectionResolvers } from './hook-lists';
import { createHookDeliveryResolvers, hookDeliveryAttemptResolvers } from './HookDelivery';
import { createMutationResolvers } from './Mutation';
import { createProjectResolvers } from './Project';
import { createQueryResolvers } from './Query';
import { createSystemHookResolvers } from './SystemHook';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  Query: createQueryResolvers(deps),
  Project: createProjectResolvers(deps),
  Hook: createHookResolvers(deps),
  SystemHook: createSystemHookResolvers(deps),
  HookDelivery: createHookDeliveryResolvers(deps),
  HookDeliveryAttempt: hookDeliveryAttemptResolvers,
  HookConnection: hookConnectionResolvers,
  HookDeliveryConnection: hookDeliveryConnectionResolvers,
  SystemHookConnection: systemHookConnectionResolvers,
  Mutation: createMutationResolvers(deps),
});
