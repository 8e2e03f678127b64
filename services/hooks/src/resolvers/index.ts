import { ownedNodes } from '@hub/common';
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

export function createResolvers(deps: ResolverDeps): Resolvers {
  const delivery = createHookDeliveryResolvers(deps);
  return {
    Query: {
      ...createQueryResolvers(deps),
      hookDeliveryNodes: ownedNodes('HookDelivery', delivery.__resolveReference!),
    },
    Project: createProjectResolvers(deps),
    Hook: createHookResolvers(deps),
    SystemHook: createSystemHookResolvers(deps),
    HookDelivery: delivery,
    HookDeliveryAttempt: hookDeliveryAttemptResolvers,
    HookConnection: hookConnectionResolvers,
    HookDeliveryConnection: hookDeliveryConnectionResolvers,
    SystemHookConnection: systemHookConnectionResolvers,
    Mutation: createMutationResolvers(deps),
  };
}
