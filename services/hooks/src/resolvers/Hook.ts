import type { HookResolvers } from '../generated/graphql';
import { createDeliveryLogResolvers } from './delivery-log';
import type { ResolverDeps } from './deps';

/** Reached only through Project.hooks/hook, which check the viewer. */
export const createHookResolvers = (deps: ResolverDeps): HookResolvers => ({
  hasToken: (hook) => hook.token !== null,
  ...createDeliveryLogResolvers(deps),
});
