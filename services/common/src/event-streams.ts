import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from './logger';
import { eventStream, parseStreamEntry, type StreamedEvent } from './outbox';
import type { Redis } from './redis';
import { touchVersions, versionKeysOf } from './resource-versions';
import { isDatabaseUnavailable, type Sql, type TransactionSql } from './db';
import { DomainError, ErrorCode } from './errors';
import { continueTrace } from './trace-context';

type StreamReply = Array<[string, Array<[string, string[]]>]> | null;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs at most `limit` tasks at once; the rest wait in the order they asked, each handed a slot as one frees. */
function createSlots(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < limit) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}

/**
 * Every instance sees every new event of `services` (XREAD from the end): for caches that must
 * drop what an event made stale. Older events are covered by the cache's TTL. Needs a Redis
 * connection of its own, since XREAD BLOCK holds it.
 */
export function followEvents(options: {
  redis: Redis;
  services: string[];
  logger: Logger;
  onEvent: (event: StreamedEvent) => void;
}) {
  const streams = options.services.map(eventStream);
  const lastIds = options.services.map(() => '$');
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const reply = (await options.redis.xread('BLOCK', 2000, 'STREAMS', ...streams, ...lastIds)) as StreamReply;
        for (const [stream, entries] of reply ?? []) {
          const index = streams.indexOf(stream);
          for (const [id, fields] of entries) {
            lastIds[index] = id;
            options.onEvent(parseStreamEntry(options.services[index], id, fields));
          }
        }
      } catch (error) {
        if (stopped) break;
        options.logger.warn({ err: error, streams }, 'event streams unavailable; cached entries expire by TTL');
        await sleep(1000);
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      options.redis.disconnect();
      await loop;
    },
  };
}

/** What one cache follows: the services whose events can make it stale, and what to do with one. */
export interface ChangeHandler {
  services: string[];
  onEvent: (event: StreamedEvent) => void;
}

/**
 * One `followEvents` for every cache of a process (access answers, the settings copy): one
 * blocking Redis connection per process however many caches follow changes, each handler given
 * only the events of its own services.
 */
export function followChanges(options: { redis: Redis; logger: Logger; handlers: ChangeHandler[] }) {
  return followEvents({
    redis: options.redis,
    services: [...new Set(options.handlers.flatMap((handler) => handler.services))],
    logger: options.logger,
    onEvent: (event) => {
      for (const handler of options.handlers) if (handler.services.includes(event.service)) handler.onEvent(event);
    },
  });
}

/**
 * Entries pending longer than this with a live consumer are taken over (default): the backstop
 * for a consumer that is alive but stuck.
 */
const CLAIM_IDLE_MS = 60_000;
/**
 * A consumer marks itself alive in Redis for this long, renewing the mark three times as often.
 * Once its mark is gone (SIGKILL, a lost node), another member takes its pending entries at once
 * instead of after `claimIdleMs`: a project created as membership died had to wait 60–90 s for
 * its access facts, and a repository as long for its `git init`.
 */
export const ALIVE_TTL_MS = 3_000;
/** How long a consumer waits for new entries before looking for dead members again. */
const READ_BLOCK_MS = 1_000;

/** The key a consumer of `group` keeps while it runs. */
export const consumerAliveKey = (group: string, consumer: string) => `events:alive:${group}:${consumer}`;
/** A handler that fails this often on one event gets the event logged and skipped. */
const MAX_ATTEMPTS = 5;

/** Failures that say something the handler needs is down for now (see the retry below). */
const isUnavailable = (error: unknown) =>
  isDatabaseUnavailable(error) ||
  (error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE) ||
  (error as { name?: string })?.name === 'MaxRetriesPerRequestError';

/**
 * Processes events of `services` once per consumer group, however many replicas run: each entry
 * goes to one member, is acknowledged after its handler succeeds, and is retried (by this
 * instance, or claimed by another after `claimIdleMs`) when it fails or its consumer dies. A new
 * group starts from the oldest entry the streams still hold. Delivery is at least once: make
 * handlers idempotent, e.g. with `handleOnce`.
 */
export function consumeEvents(options: {
  redis: Redis;
  group: string;
  services: string[];
  logger: Logger;
  handle: (event: StreamedEvent) => Promise<void>;
  batchSize?: number;
  /**
   * How long an entry may sit with a consumer before another takes it over. Shorter means a dead
   * consumer's entries move on sooner, but a slow live one may see its entry handled twice: fine
   * for idempotent handlers.
   */
  claimIdleMs?: number;
  /**
   * Which entries must keep their order (a project's id, say): entries sharing a key are handled
   * one after another in stream order, others side by side, so one slow event (an import, a
   * fork of a large repository) does not hold up every other project's. `[]` for an entry that
   * needs no order, null for one every earlier and later entry must wait for. Unset: one at a time.
   */
  orderKeys?: (event: StreamedEvent) => string[] | null;
  /** How many entries are handled at once when `orderKeys` is set (8 unless given). */
  concurrency?: number;
}) {
  const { redis, group, logger } = options;
  const claimIdleMs = options.claimIdleMs ?? CLAIM_IDLE_MS;
  // Unique per consumer, even two in one process: members of a group must never share a name,
  // or each would re-handle the other's pending entries. A dead member's entries are claimed.
  const consumer = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const streams = options.services.map(eventStream);
  const serviceOf = new Map(options.services.map((service) => [eventStream(service), service]));
  const attempts = new Map<string, number>();
  const count = options.batchSize ?? 100;
  const { orderKeys } = options;
  const concurrency = options.concurrency ?? 8;
  let stopped = false;
  // Its own connection: the marks must go out while the consumer's is held by XREADGROUP BLOCK,
  // and must not queue up while Redis is away.
  const marks = redis.duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  marks.on('error', () => {}); // the loop reports Redis being away
  const markAlive = () => marks.set(consumerAliveKey(group, consumer), '1', 'PX', ALIVE_TTL_MS).catch(() => {});
  const marking = setInterval(markAlive, ALIVE_TTL_MS / 3);
  marking.unref();

  async function ensureGroups() {
    for (const stream of streams) {
      try {
        await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
      } catch (error) {
        if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
      }
    }
  }

  /** Handles one entry; false when it failed and stays pending for a retry. */
  async function handleEntry(stream: string, id: string, fields: string[] | null): Promise<boolean> {
    // A claimed entry that was trimmed from the stream meanwhile comes back without fields.
    const event = fields && parseStreamEntry(serviceOf.get(stream)!, id, fields);
    if (event) {
      try {
        await continueTrace(
          event.traceparent,
          `${event.service} ${event.type} event`,
          { 'messaging.destination.name': stream, 'messaging.consumer.group.name': group },
          () => options.handle(event),
        );
      } catch (error) {
        // The database or a service being down is no fault of the event: it is retried until
        // they are back, without counting towards skipping it (a Postgres restart outlasted
        // five one-second retries, and the event was lost).
        const tries = (attempts.get(id) ?? 0) + (isUnavailable(error) ? 0 : 1);
        attempts.set(id, tries);
        if (tries < MAX_ATTEMPTS) {
          logger.warn({ err: error, stream, id, type: event.type, tries }, 'event handler failed; will retry');
          return false;
        }
        logger.error(
          { err: error, stream, id, type: event.type, payload: event.payload },
          'event handler keeps failing; skipping the event',
        );
      }
    }
    attempts.delete(id);
    // What the handler derived from the event (a feed entry, an access fact) is visible now: the
    // versions of what it touched advance with the acknowledgement (resource-versions.ts).
    const batch = redis.multi();
    if (event) touchVersions(batch, versionKeysOf(event));
    const results = (await batch.xack(stream, group, id).exec()) ?? [];
    for (const [error] of results) if (error) throw error;
    return true;
  }

  /** An entry's order keys; one the function cannot key (it threw) waits for, and holds up, everything. */
  function keysOf(stream: string, id: string, fields: string[]): string[] | null {
    try {
      return orderKeys!(parseStreamEntry(serviceOf.get(stream)!, id, fields));
    } catch (error) {
      logger.warn({ err: error, stream, id }, 'cannot tell this event’s order keys; it is handled alone');
      return null;
    }
  }

  /**
   * Handles a reply's entries; false when one failed. Without `orderKeys`, each stream's entries
   * strictly one after another, stopping at a failure. With them, an entry waits only for the
   * earlier entries it shares a key with (all earlier ones for a null key), up to `concurrency`
   * at once; an entry whose predecessor failed is not run. Either way what was not acknowledged
   * stays pending and is read again, in stream order, before anything newer.
   */
  async function handleReply(reply: StreamReply): Promise<boolean> {
    if (!orderKeys) {
      let ok = true;
      for (const [stream, list] of reply ?? []) {
        for (const [id, fields] of list) {
          if (await handleEntry(stream, id, fields)) continue;
          ok = false;
          break;
        }
      }
      return ok;
    }
    const entries = (reply ?? []).flatMap(([stream, list]) =>
      list.map(([id, fields]) => ({ stream, id, fields: fields as string[] | null })),
    );
    const last = new Map<string, Promise<boolean>>();
    let barrier: Promise<boolean> = Promise.resolve(true);
    const started: Array<Promise<boolean>> = [];
    const slots = createSlots(concurrency);
    for (const { stream, id, fields } of entries) {
      const keys = fields ? keysOf(stream, id, fields) : [];
      const before = keys === null ? [...started] : [barrier, ...keys.flatMap((key) => last.get(key) ?? [])];
      const done = Promise.all(before).then((ok) =>
        ok.every(Boolean) ? slots.run(() => handleEntry(stream, id, fields)) : false,
      );
      if (keys === null) barrier = done;
      else for (const key of keys) last.set(key, done);
      started.push(done);
    }
    return (await Promise.all(started)).every(Boolean);
  }

  /**
   * Takes over the pending entries of members whose alive mark is gone, and forgets members left
   * with none (each restart joins as a new member). Claimed entries must have been idle half a
   * mark's life, so two members taking over from the same dead one do not take from each other.
   */
  async function takeOverDeadMembers() {
    for (const stream of streams) {
      const members = (await redis.xinfo('CONSUMERS', stream, group)) as Array<Array<string | number>>;
      for (const fields of members) {
        const info = Object.fromEntries(
          Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]),
        );
        const name = String(info.name);
        if (name === consumer || (await redis.exists(consumerAliveKey(group, name)))) continue;
        if (Number(info.pending) === 0) {
          await redis.xgroup('DELCONSUMER', stream, group, name);
          continue;
        }
        const owned = (await redis.xpending(stream, group, 'IDLE', ALIVE_TTL_MS / 2, '-', '+', count, name)) as Array<
          [string, ...unknown[]]
        >;
        if (owned.length === 0) continue;
        const claimed = (await redis.xclaim(
          stream,
          group,
          consumer,
          ALIVE_TTL_MS / 2,
          ...owned.map(([id]) => id),
        )) as Array<[string, string[] | null]>;
        if (claimed.length) {
          logger.info(
            { stream, group, from: name, entries: claimed.length },
            'took over the pending entries of a consumer that is gone',
          );
          await handleReply([[stream, claimed as Array<[string, string[]]>]]);
        }
      }
    }
  }

  const loop = (async () => {
    let lastClaim = 0;
    let lastTakeOver = 0;
    // Marked before joining the group, or another member could take this one for dead. A Redis
    // that is away holds the start for a second at most; the loop then retries as it does.
    if (marks.status !== 'ready')
      await Promise.race([new Promise((resolve) => marks.once('ready', resolve)), sleep(1000)]);
    await markAlive();
    // Created once, and again after a failure (a Redis that lost its data forgets the groups).
    let groupsReady = false;
    while (!stopped) {
      try {
        if (!groupsReady) {
          await ensureGroups();
          groupsReady = true;
        }
        // Our own unacknowledged entries first: one whose handler failed is retried before newer ones.
        const pending = (await redis.xreadgroup(
          'GROUP',
          group,
          consumer,
          'COUNT',
          count,
          'STREAMS',
          ...streams,
          ...streams.map(() => '0'),
        )) as StreamReply;
        if (!(await handleReply(pending))) {
          await sleep(1000);
          continue;
        }
        if (Date.now() - lastTakeOver >= ALIVE_TTL_MS / 3) {
          lastTakeOver = Date.now();
          await takeOverDeadMembers();
        }
        if (Date.now() - lastClaim > claimIdleMs / 2) {
          lastClaim = Date.now();
          for (const stream of streams) {
            const [, claimed] = (await redis.xautoclaim(
              stream,
              group,
              consumer,
              claimIdleMs,
              '0-0',
              'COUNT',
              count,
            )) as [string, Array<[string, string[] | null]>];
            if (claimed.length) await handleReply([[stream, claimed as Array<[string, string[]]>]]);
          }
        }
        const fresh = (await redis.xreadgroup(
          'GROUP',
          group,
          consumer,
          'COUNT',
          count,
          'BLOCK',
          READ_BLOCK_MS,
          'STREAMS',
          ...streams,
          ...streams.map(() => '>'),
        )) as StreamReply;
        await handleReply(fresh);
      } catch (error) {
        if (stopped) break;
        groupsReady = false;
        logger.warn({ err: error, group }, 'event streams unavailable; retrying');
        await sleep(1000);
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      clearInterval(marking);
      redis.disconnect();
      await loop;
      // Gone for good: no mark, so the others take over whatever it left pending at once.
      await marks.del(consumerAliveKey(group, consumer)).catch(() => {});
      marks.disconnect();
    },
  };
}

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
