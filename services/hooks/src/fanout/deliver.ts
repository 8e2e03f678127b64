import { randomUUID } from 'node:crypto';
import type { Sql } from '@hub/common';
import { insertDeliveries, type DeliveryRow } from '../db/deliveries';
import type { DeliveryQueue } from '../delivery/queue';

/** One event for a set of hooks: the log key of the event, its X-Gitlab-Event and the body. */
export interface Outgoing {
  /** <service>:<outbox id> (with a suffix when one domain event makes several). */
  eventKey: string;
  eventName: string;
  payload: Record<string, unknown>;
}

/**
 * The one path project and system hooks share: a delivery per hook recorded in Postgres (once per
 * event and hook, however often the event arrives) and queued under a deterministic job id.
 * Returns the deliveries still pending.
 */
export async function deliverToHooks(
  deps: { sql: Sql; queue: DeliveryQueue },
  hooks: ReadonlyArray<{ id: number }>,
  outgoing: Outgoing,
): Promise<DeliveryRow[]> {
  if (hooks.length === 0) return [];
  const payload = JSON.stringify(outgoing.payload);
  const pending = await insertDeliveries(
    deps.sql,
    hooks.map((hook) => ({
      hookId: hook.id,
      eventKey: outgoing.eventKey,
      eventName: outgoing.eventName,
      webhookId: `msg_${randomUUID()}`,
      payload,
    })),
  );
  await deps.queue.enqueue(pending);
  return pending;
}
