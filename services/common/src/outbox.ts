import { once } from 'node:events';
import type { Logger } from './logger';
import type { Redis } from './redis';
import { settleVersions, touchVersions, versionKeysOf } from './resource-versions';
import type { Sql, TransactionSql } from './db';
import { currentTraceparent } from './trace-context';

/** The Redis stream a service's events land on; consumers read `events:<service>`. */
export const eventStream = (service: string) => `events:${service}`;
/** The channel a transaction that records events notifies; the service's relays listen on it. */
export const outboxChannel = (service: string) => `outbox_${service}`;

export interface DomainEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** A relayed event as consumers read it from the stream. */
export interface StreamedEvent extends DomainEvent {
  /** The outbox row id. A relay that crashed between XADD and its delete sends an event again
   * under the same id: consumers drop ids they have already handled. */
  id: string;
  /** The entry's position in the stream. */
  streamId: string;
  service: string;
  occurredAt: string;
  /** The trace of the request that recorded it, when that was traced. */
  traceparent?: string;
}

/**
 * Records a domain event inside the caller's transaction: it becomes visible to the relay
 * exactly when the change it describes commits, and is lost only if the change is.
 */
export async function recordEvent(tx: TransactionSql, service: string, event: DomainEvent): Promise<void> {
  await tx`insert into outbox (event_type, payload, traceparent) values (${event.type}, ${tx.json(event.payload as never)}, ${currentTraceparent()})`;
  await tx`select pg_notify(${outboxChannel(service)}, '')`;
}

/**
 * Wakes a service's relays for events recorded without a notify of their own, at most once every
 * `gapMs`: the first call after a quiet gap notifies at once, the calls within a gap make one
 * notify at its end. Each notify wakes every relay of the service (each tries a transaction) and
 * every listening backend; for a producer of hundreds of events a second (hook delivery attempts)
 * that was most of what relaying cost. An event whose notify is lost (a crash in the gap) waits
 * for the relays' poll.
 */
export function createOutboxNotifier(options: { sql: Sql; service: string; gapMs: number; logger: Logger }) {
  const { sql, service, gapMs, logger } = options;
  let last = -Infinity;
  let pending: NodeJS.Timeout | null = null;
  const send = () => {
    pending = null;
    last = performance.now();
    sql`select pg_notify(${outboxChannel(service)}, '')`.catch((error: unknown) =>
      logger.warn({ err: error, service }, 'cannot wake the outbox relay; its poll will find the events'),
    );
  };
  return {
    notify(): void {
      if (pending) return;
      const wait = last + gapMs - performance.now();
      if (wait <= 0) send();
      else pending = setTimeout(send, wait).unref();
    },
  };
}

/** Decodes a stream entry written by the relay. */
export function parseStreamEntry(service: string, id: string, fields: string[]): StreamedEvent {
  const map: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) map[fields[i]] = fields[i + 1];
  return {
    id: map.outbox_id,
    streamId: id,
    service,
    type: map.type,
    payload: JSON.parse(map.payload ?? '{}'),
    occurredAt: map.occurred_at,
    ...(map.traceparent ? { traceparent: map.traceparent } : {}),
  };
}

/**
 * Moves committed outbox rows to the service's Redis stream, oldest first, then deletes them.
 * Delivery is at least once: a crash between XADD and the delete sends a batch again, under the
 * same outbox ids. Redis assigns the stream ids: outbox ids are taken at insert but become
 * visible at commit, so a lower id can commit after a higher one was relayed, and must still go
 * out. One relay per schema works at a time (an advisory lock), so every replica can run one.
 * While Redis is down rows simply wait; the relay retries with backoff and catches up.
 */
export function startOutboxRelay(options: {
  sql: Sql;
  redis: Redis;
  service: string;
  logger: Logger;
  maxLen: number;
  batchSize?: number;
  pollMs?: number;
}): { stop: () => Promise<void> } {
  const { sql, redis, service, logger, maxLen } = options;
  const batchSize = options.batchSize ?? 200;
  const pollMs = options.pollMs ?? 1000;
  const stream = eventStream(service);
  let stopped = false;
  let signalStop = () => {};
  const stopSignal = new Promise<void>((resolve) => (signalStop = resolve));
  let wake: (() => void) | null = null;
  // A notify that comes while a batch is being read is kept: its rows may have committed after the read.
  let woken = false;
  let failing = false;

  const relayBatch = () =>
    sql.begin(async (tx) => {
      const [{ locked }] = await tx`select pg_try_advisory_xact_lock(hashtext(${'outbox:' + service})) as locked`;
      if (!locked) return 0;
      const rows = await tx`
        select id, event_type, payload, created_at, traceparent from outbox order by id limit ${batchSize}`;
      // Columns arrive camelCased (the pool's transform).
      if (rows.length === 0) return 0;
      const multi = redis.multi();
      const touched = new Set<string>();
      for (const row of rows) {
        const keys = versionKeysOf({ service, type: row.eventType, payload: row.payload });
        touchVersions(multi, keys);
        for (const key of keys) touched.add(key);
        multi.xadd(
          stream,
          'MAXLEN',
          '~',
          String(maxLen),
          '*',
          'type',
          row.eventType,
          'outbox_id',
          String(row.id),
          'payload',
          JSON.stringify(row.payload),
          'occurred_at',
          new Date(row.createdAt).toISOString(),
          ...(row.traceparent ? ['traceparent', row.traceparent] : []),
        );
      }
      const results = (await multi.exec()) ?? [];
      for (const [error] of results) if (error) throw error;
      await tx`delete from outbox where id in ${tx(rows.map((row) => row.id))}`;
      settleVersions(redis, [...touched]);
      return rows.length;
    });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const listening = sql
    .listen(outboxChannel(service), () => {
      woken = true;
      wake?.();
    })
    .catch((error) => {
      logger.warn({ err: error }, 'outbox relay cannot LISTEN; polling only');
      return null;
    });

  const loop = (async () => {
    // Not an outage yet: Redis is still connecting at start-up.
    if (redis.status !== 'ready') await Promise.race([once(redis, 'ready'), stopSignal]);
    let backoff = pollMs;
    while (!stopped) {
      try {
        woken = false;
        const moved = await relayBatch();
        if (failing) logger.info({ service }, 'outbox relay recovered');
        failing = false;
        backoff = pollMs;
        if (moved < batchSize && !woken) await sleep(pollMs);
      } catch (error) {
        if (!failing) logger.warn({ err: error, service }, 'outbox relay failed; events wait in Postgres');
        failing = true;
        await sleep(backoff);
        // At most 2 s: a NOTIFY sent while the LISTEN connection is still reconnecting is lost,
        // and with a 10 s cap the first events after a Postgres restart waited up to 10 s more
        // (a project made then was unknown to membership for 8 s: its member adds answered 404).
        backoff = Math.min(backoff * 2, 2_000);
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      signalStop();
      wake?.();
      await loop;
      const listener = await listening;
      await listener?.unlisten().catch(() => {});
    },
  };
}
