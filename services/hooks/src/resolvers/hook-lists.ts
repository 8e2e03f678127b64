import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import { countDeliveries, listDeliveries, listDeliveriesKeyset, type DeliveryRow } from '../db/deliveries';
import { countHooks, listHooks, listHooksKeyset, type HookRow, type SystemHookRow } from '../db/hooks';
import type {
  HookConnectionResolvers,
  HookDeliveryConnectionResolvers,
  SystemHookConnectionResolvers,
} from '../generated/graphql';
import type { ResolverDeps } from './deps';

// The lists as their connection types resolve them (common/connections.ts): v3's pages by number
// for the facade, keyset pages by id for the public schema. Each list's cursors name one project's
// hooks, one hook's log, or the system hooks (SystemHooksService.list): a cursor of another list is
// refused.

export type HookConnectionParent = ConnectionParent<HookRow>;
export type HookDeliveryConnectionParent = ConnectionParent<DeliveryRow>;
export type SystemHookConnectionParent = ConnectionParent<SystemHookRow>;

type Deps = Pick<ResolverDeps, 'sql' | 'cursors'>;

/** A project's hooks, oldest first. The caller has been checked already. */
export const hookList = ({ sql, cursors }: Deps, projectId: number, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: `hooks:project-${projectId}:id:asc`,
    byNumber: (window) => listHooks(sql, projectId, window),
    byKeyset: (window) => listHooksKeyset(sql, projectId, window),
    count: () => countHooks(sql, projectId),
  });

/** A hook's delivery log (a project hook's or a system hook's), newest first. The caller has been checked already. */
export const deliveryList = ({ sql, cursors }: Deps, hookId: number, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: `deliveries:hook-${hookId}:id:desc`,
    byNumber: (window) => listDeliveries(sql, hookId, window),
    byKeyset: (window) => listDeliveriesKeyset(sql, hookId, window),
    count: () => countDeliveries(sql, hookId),
  });

export const hookConnectionResolvers: HookConnectionResolvers = connectionResolvers;
export const hookDeliveryConnectionResolvers: HookDeliveryConnectionResolvers = connectionResolvers;
export const systemHookConnectionResolvers: SystemHookConnectionResolvers = connectionResolvers;
