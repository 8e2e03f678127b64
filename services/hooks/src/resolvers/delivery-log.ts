import type { ListArgs } from '@hub/common';
import { findDelivery } from '../db/deliveries';
import type { HookResolvers, SystemHookResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { deliveryList } from './hook-lists';

type DeliveryLogFields = 'deliveries' | 'delivery';

/**
 * A hook's delivery log, the same for project and system hooks (rows of one table, their
 * deliveries kept by hook id). Whoever reaches the hook has been checked already.
 */
export const createDeliveryLogResolvers = ({
  sql,
  cursors,
}: ResolverDeps): Pick<HookResolvers, DeliveryLogFields> & Pick<SystemHookResolvers, DeliveryLogFields> => ({
  deliveries: (hook: { id: number }, args: ListArgs) => deliveryList({ sql, cursors }, hook.id, args),
  delivery: async (hook: { id: number }, { id }: { id: number }) => (await findDelivery(sql, hook.id, id)) ?? null,
});
