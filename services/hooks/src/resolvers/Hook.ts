import { pageWindow } from '@hub/common';
import { findDelivery, listDeliveries } from '../db/deliveries';
import type { HookResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Reached only through Project.hooks/hook, which check the viewer. */
export const createHookResolvers = ({ sql }: ResolverDeps): HookResolvers => ({
  hasToken: (hook) => hook.token !== null,
  deliveries: async (hook, args) => {
    const { rows, total } = await listDeliveries(sql, hook.id, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  delivery: async (hook, { id }) => (await findDelivery(sql, hook.id, id)) ?? null,
});
