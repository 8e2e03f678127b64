import { fitsIntegerColumn, readOrNull, referencedDatabaseId, toGlobalId } from '@hub/common';
import type { SystemHookResolvers } from '../generated/graphql';
import { createDeliveryLogResolvers } from './delivery-log';
import type { ResolverDeps } from './deps';

/** Reached through Query.systemHooks/systemHook, the mutations and node(id:), each of which checks for an admin. */
export const createSystemHookResolvers = (deps: ResolverDeps): SystemHookResolvers => ({
  __resolveReference: async (reference, { principal }) => {
    const id = referencedDatabaseId('SystemHook', reference);
    if (id === null || !fitsIntegerColumn(id)) return null;
    return readOrNull(() => deps.systemHooks.find(principal, id));
  },
  id: (hook) => toGlobalId('SystemHook', hook.id),
  databaseId: (hook) => hook.id,
  ...createDeliveryLogResolvers(deps),
});
