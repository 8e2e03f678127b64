import { fitsIntegerColumn, readOrNull, referencedDatabaseId, toGlobalId } from '@hub/common';
import { findProjectHookById } from '../db/hooks';
import type { HookResolvers } from '../generated/graphql';
import { createDeliveryLogResolvers } from './delivery-log';
import type { ResolverDeps } from './deps';

/** Reached through Project.hooks/hook, which check the viewer, or node(id:), which checks here. */
export const createHookResolvers = (deps: ResolverDeps): HookResolvers => ({
  // A hook shows to those who may administer its project (Master and up, and admins).
  __resolveReference: async (reference, { principal }) => {
    const id = referencedDatabaseId('Hook', reference);
    const hook = id !== null && fitsIntegerColumn(id) ? await findProjectHookById(deps.sql, id) : undefined;
    if (!hook) return null;
    return readOrNull(async () => {
      await deps.hooks.authorizeAdmin(principal, hook.projectId);
      return hook;
    });
  },
  id: (hook) => toGlobalId('Hook', hook.id),
  databaseId: (hook) => hook.id,
  hasToken: (hook) => hook.token !== null,
  ...createDeliveryLogResolvers(deps),
});
