import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../logger';
import { eventStream, type StreamedEvent } from '../outbox';
import type { Redis } from '../redis';
import { createClaims } from './claims';
import { createDispatcher } from './dispatch';
import { ALIVE_TTL_MS, keepAlive } from './liveness';
import { createReplyHandler } from './ordering';
import { sleep, type StreamReply } from './stream-reply';

/**
 * Entries pending longer than this with a live consumer are taken over (default): the backstop
 * for a consumer that is alive but stuck.
 */
const CLAIM_IDLE_MS = 60_000;
/** How long a consumer waits for new entries before looking for dead members again. */
const READ_BLOCK_MS = 1_000;

/**
 * Processes events of `services` once per consumer group, however many replicas run: each entry
 * goes to one member, is acknowledged after its handler succeeds, and is retried (by this
 * instance, or claimed by another after `claimIdleMs`) when it fails or its consumer dies. A new
 * group starts from the oldest entry the streams still hold. Delivery is at least once: make
 * handlers idempotent, e.g. with `handleOnce`.
 *
 * The parts: liveness.ts (the alive mark), dispatch.ts (one entry: handled, retried or skipped,
 * acknowledged), ordering.ts (a reply's entries, in order or side by side), claims.ts (entries
 * other members left pending).
 */
export function consumeEvents(options: {
  redis: Redis;
  group: string;
  services: string[];
  logger: Logger;
  handle: (event: StreamedEvent) => Promise<void>;
  /**
   * The events `handle` acts on, when it passes most over (all when unset): the others are
   * acknowledged as they come, without the handler, and advance no resource version, as nothing
   * was made of them. A consumer of another service's stream that wants a few of its events
   * skips parsing and a MULTI for each of the rest.
   */
  wants?: (event: StreamedEvent) => boolean;
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
  const services = new Map(options.services.map((service) => [eventStream(service), service]));
  const serviceOf = (stream: string) => services.get(stream)!;
  const count = options.batchSize ?? 100;
  let stopped = false;
  const alive = keepAlive(redis, group, consumer);
  const handleAll = createReplyHandler({
    handleEntry: createDispatcher({ redis, group, logger, serviceOf, handle: options.handle, wants: options.wants }),
    logger,
    serviceOf,
    orderKeys: options.orderKeys,
    concurrency: options.concurrency ?? 8,
  });
  /**
   * Whether this consumer may hold entries it has not acknowledged: set when a reply (read or
   * claimed) was not wholly handled, cleared once a read of its own pending entries finds none.
   * Reading them before every read of new entries doubled the reads: two XREADGROUPs per event
   * and group at a steady trickle, where one is enough while nothing has failed.
   */
  let mayHoldPending = true;
  const handleReply = async (reply: StreamReply) => {
    const handled = await handleAll(reply);
    if (!handled) mayHoldPending = true;
    return handled;
  };
  const claims = createClaims({ redis, group, consumer, streams, count, claimIdleMs, logger, handleReply });

  async function ensureGroups() {
    for (const stream of streams) {
      try {
        await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
      } catch (error) {
        if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
      }
    }
  }

  // One signature for both reads: ioredis types XREADGROUP with and without BLOCK as separate overloads.
  const xreadgroup = redis.xreadgroup.bind(redis) as unknown as (...args: Array<string | number>) => Promise<unknown>;
  /** This consumer's entries: from '0' its own unacknowledged ones, from '>' new ones, waiting up to READ_BLOCK_MS. */
  const read = async (from: '0' | '>') =>
    (await xreadgroup(
      ...['GROUP', group, consumer, 'COUNT', count],
      ...(from === '>' ? ['BLOCK', READ_BLOCK_MS] : []),
      ...['STREAMS', ...streams, ...streams.map(() => from)],
    )) as StreamReply;

  const loop = (async () => {
    let lastClaim = 0;
    let lastTakeOver = 0;
    await alive.first();
    // Created once, and again after a failure (a Redis that lost its data forgets the groups).
    let groupsReady = false;
    while (!stopped) {
      try {
        if (!groupsReady) {
          await ensureGroups();
          groupsReady = true;
        }
        // Our own unacknowledged entries first: one whose handler failed is retried before newer ones.
        if (mayHoldPending) {
          const own = await read('0');
          if (!own?.some(([, list]) => list.length > 0)) mayHoldPending = false;
          else {
            if (!(await handleReply(own))) await sleep(1000);
            continue;
          }
        }
        if (Date.now() - lastTakeOver >= ALIVE_TTL_MS / 3) {
          lastTakeOver = Date.now();
          await claims.takeOverDeadMembers();
        }
        if (Date.now() - lastClaim > claimIdleMs / 2) {
          lastClaim = Date.now();
          await claims.claimIdle();
        }
        await handleReply(await read('>'));
      } catch (error) {
        if (stopped) break;
        groupsReady = false;
        mayHoldPending = true;
        logger.warn({ err: error, group }, 'event streams unavailable; retrying');
        await sleep(1000);
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      redis.disconnect();
      await loop;
      await alive.stop();
    },
  };
}
