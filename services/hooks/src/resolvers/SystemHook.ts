import type { SystemHookResolvers } from '../generated/graphql';
import { createDeliveryLogResolvers } from './delivery-log';
import type { ResolverDeps } from './deps';

/** Reached only through Query.systemHooks/systemHook and the mutations, which check for an admin. */
export const createSystemHookResolvers = (deps: ResolverDeps): SystemHookResolvers => createDeliveryLogResolvers(deps);
