import type { Sql, TransactionSql } from '../db';
import type { StreamedEvent } from '../outbox';

/**
 * Runs `effect` in a transaction that also records the event as consumed, so a redelivered event
 * changes nothing: exactly-once effects on top of at-least-once delivery. Returns false for a
 * duplicate.
 */
export async function handleOnce(
  sql: Sql,
  event: StreamedEvent,
  effect: (tx: TransactionSql) => Promise<void>,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const fresh = await tx`
      insert into consumed_events (service, outbox_id) values (${event.service}, ${event.id})
      on conflict do nothing returning 1`;
    if (fresh.length === 0) return false;
    await effect(tx);
    return true;
  });
}
