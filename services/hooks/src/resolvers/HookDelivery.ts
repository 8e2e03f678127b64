import { readOrNull, referencedDatabaseId, requireAdmin, toGlobalId } from '@hub/common';
import { findDeliveryWithHook } from '../db/deliveries';
import type { HookDeliveryAttemptResolvers, HookDeliveryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const headerList = (headers: Record<string, string> | null) =>
  headers && Object.entries(headers).map(([name, value]) => ({ name, value }));

/** Reached through a hook's log (whose hook was checked), the mutations, or node(id:), which checks here. */
export const createHookDeliveryResolvers = (deps: ResolverDeps): HookDeliveryResolvers => ({
  // A delivery shows to those who may see its hook: Masters and up of a project hook's project
  // (and admins), only admins for a system hook's.
  __resolveReference: async (reference, { principal }) => {
    const id = referencedDatabaseId('HookDelivery', reference);
    // Deliveries are a bigserial: any id a global id can carry fits the column.
    const found = id === null ? undefined : await findDeliveryWithHook(deps.sql, id);
    if (!found) return null;
    const { delivery, hook } = found;
    return readOrNull(async () => {
      if (hook.kind === 'system') requireAdmin(principal);
      else await deps.hooks.authorizeAdmin(principal, hook.projectId);
      return delivery;
    });
  },
  id: (delivery) => toGlobalId('HookDelivery', delivery.id),
  databaseId: (delivery) => delivery.id,
  attempts: (delivery, _args, { loaders }) => loaders.attempts.load(delivery.id),
});

export const hookDeliveryAttemptResolvers: HookDeliveryAttemptResolvers = {
  requestHeaders: (attempt) => headerList(attempt.requestHeaders) ?? [],
  responseHeaders: (attempt) => headerList(attempt.responseHeaders),
};
