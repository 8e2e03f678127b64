import type { KnownEvent, Sql } from '@hub/common';
import { allSystemHookIds } from '../db/hooks';
import type { DeliveryQueue } from '../delivery/queue';
import { deliverToHooks } from './deliver';
import type { Directory } from './directory';
import { readSystemEvents } from './system-events';
import { buildSystemPayload, SYSTEM_HOOK_EVENT, systemLookups } from './system-payloads';

/**
 * GitLab's SystemHooksService: each system event (a project, user, team or group made or removed)
 * goes to every system hook, through the same log and queue as project hooks.
 */
export function createSystemFanOut(deps: { sql: Sql; directory: Directory; queue: DeliveryQueue }) {
  return async (known: KnownEvent): Promise<void> => {
    const events = readSystemEvents(known);
    if (events.length === 0) return;
    const hooks = await allSystemHookIds(deps.sql);
    if (hooks.length === 0) return;
    const wanted = events.map(systemLookups);
    const [users, projects] = await Promise.all([
      deps.directory.users(wanted.flatMap((w) => w.users)),
      deps.directory.projects(wanted.flatMap((w) => w.projects)),
    ]);
    for (const event of events) {
      const payload = buildSystemPayload(event, { users, projects });
      if (!payload) continue;
      await deliverToHooks(deps, hooks, {
        eventKey: `${known.event.service}:${known.event.id}${event.keySuffix}`,
        eventName: SYSTEM_HOOK_EVENT,
        payload,
      });
    }
  };
}
