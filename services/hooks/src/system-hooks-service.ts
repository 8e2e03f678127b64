import { randomUUID } from 'node:crypto';
import { notFound, recordNotFound, requireAdmin, type ListReads, type Principal, type Sql } from '@hub/common';
import * as deliveries from './db/deliveries';
import type { DeliveryRow } from './db/deliveries';
import * as hooks from './db/hooks';
import type { SystemHookRow } from './db/hooks';
import type { DeliveryQueue } from './delivery/queue';
import { resendDelivery } from './delivery/resend';
import { newSigningSecret } from './delivery/signing';
import { checkHookUrl } from './domain/hook-url';
import { deliverToHooks } from './fanout/deliver';
import { SYSTEM_HOOK_EVENT, TEST_PAYLOAD } from './fanout/system-payloads';

/**
 * System hooks, GitLab 7.14's lib/api/system_hooks.rb: admins only (`authenticated_as_admin!`,
 * checked before anything else). Their deliveries take the project hooks' path: the same log,
 * queue, worker and signing.
 */
export function createSystemHooksService(deps: { sql: Sql; queue: DeliveryQueue; allowLocal: boolean }) {
  const { sql } = deps;

  async function hookOr404(id: number): Promise<SystemHookRow> {
    const hook = await hooks.findSystemHook(sql, id);
    // SystemHook.find: ActiveRecord's RecordNotFound.
    if (!hook) throw recordNotFound();
    return hook;
  }

  return {
    /** The system hooks, oldest (smallest id) first, as common's pagedList reads them; for admins only. */
    list(principal: Principal): ListReads<SystemHookRow> {
      requireAdmin(principal);
      return {
        ordering: 'system-hooks:id:asc',
        byNumber: (window) => hooks.listSystemHooks(sql, window),
        byKeyset: (window) => hooks.listSystemHooksKeyset(sql, window),
        count: () => hooks.countSystemHooks(sql),
      };
    },

    /** Null when there is no system hook by that id. */
    async find(principal: Principal, id: number): Promise<SystemHookRow | null> {
      requireAdmin(principal);
      return (await hooks.findSystemHook(sql, id)) ?? null;
    },

    /** url as project hooks check it: http(s) (422 'Invalid url given'), no internal address. */
    async add(principal: Principal, url: string): Promise<SystemHookRow> {
      requireAdmin(principal);
      return hooks.insertSystemHook(sql, {
        url: await checkHookUrl(url, deps.allowLocal),
        signingSecret: newSigningSecret(),
      });
    },

    /** Idempotent: the removed hook, or null when there was none. Its pending deliveries go with it. */
    async remove(principal: Principal, id: number): Promise<SystemHookRow | null> {
      requireAdmin(principal);
      return (await hooks.deleteSystemHook(sql, id)) ?? null;
    },

    /**
     * GitLab's GET /hooks/:id: sends its fixed sample project_create to the hook. 7.14 posted it
     * inline and ignored the outcome; here it is a logged delivery like any other, queued now.
     */
    async test(principal: Principal, id: number): Promise<DeliveryRow> {
      requireAdmin(principal);
      const hook = await hookOr404(id);
      const [delivery] = await deliverToHooks(deps, [hook], {
        eventKey: `test:${randomUUID()}`,
        eventName: SYSTEM_HOOK_EVENT,
        payload: { ...TEST_PAYLOAD },
      });
      return delivery;
    },

    async resend(principal: Principal, hookId: number, id: number): Promise<DeliveryRow> {
      requireAdmin(principal);
      const hook = await hookOr404(hookId);
      const delivery = await deliveries.findDelivery(sql, hook.id, id);
      if (!delivery) throw notFound();
      return resendDelivery(deps, delivery);
    },
  };
}

export type SystemHooksService = ReturnType<typeof createSystemHooksService>;
