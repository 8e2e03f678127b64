import { pageWindow } from '@hub/common';
import { findDelivery, listDeliveries } from '../db/deliveries';
import type { HookResolvers, SystemHookResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

type DeliveryLogFields = 'deliveries' | 'delivery';

/**
 * A hook's delivery log, the same for project and system hooks (rows of one table, their
 * deliveries kept by hook id). Whoever reaches the hook has been checked already.
 */
export const createDeliveryLogResolvers = ({
  sql,
}: ResolverDeps): Pick<HookResolvers, DeliveryLogFields> & Pick<SystemHookResolvers, DeliveryLogFields> => ({
  deliveries: async (hook: { id: number }, args: { page: number; perPage: number }) => {
    const { rows, total } = await listDeliveries(sql, hook.id, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  delivery: async (hook: { id: number }, { id }: { id: number }) => (await findDelivery(sql, hook.id, id)) ?? null,
});
