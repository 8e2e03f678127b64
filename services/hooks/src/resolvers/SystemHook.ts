import { pageWindow } from '@hub/common';
import { findDelivery, listDeliveries } from '../db/deliveries';
import type { SystemHookResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Reached only through Query.systemHooks/systemHook and the mutations, which check for an admin. */
export const createSystemHookResolvers = ({ sql }: ResolverDeps): SystemHookResolvers => ({
  deliveries: async (hook, args) => {
    const { rows, total } = await listDeliveries(sql, hook.id, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  delivery: async (hook, { id }) => (await findDelivery(sql, hook.id, id)) ?? null,
});
