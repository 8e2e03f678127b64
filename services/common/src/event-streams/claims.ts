import type { Logger } from '../logger';
import type { Redis } from '../redis';
import { ALIVE_TTL_MS, isAlive } from './liveness';
import type { StreamReply } from './stream-reply';

type Claimed = Array<[string, string[] | null]>;

/**
 * How one consumer takes over entries other members of its group left pending: at once from a
 * member whose alive mark is gone, and after `claimIdleMs` from any member (the backstop for one
 * that is alive but stuck). Claimed entries go to `handleReply` like entries read.
 */
export function createClaims(options: {
  redis: Redis;
  group: string;
  consumer: string;
  streams: string[];
  /** How many entries one claim takes at most. */
  count: number;
  claimIdleMs: number;
  logger: Logger;
  handleReply: (reply: StreamReply) => Promise<boolean>;
}) {
  const { redis, group, consumer, streams, count, logger, handleReply } = options;
  const handleClaimed = (stream: string, claimed: Claimed) =>
    handleReply([[stream, claimed as Array<[string, string[]]>]]);

  /** A member's fields as XINFO CONSUMERS lists them (name, pending, idle, ...). */
  const infoOf = (fields: Array<string | number>) =>
    Object.fromEntries(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]));

  return {
    /**
     * Takes over the pending entries of members whose alive mark is gone, and forgets members left
     * with none (each restart joins as a new member). Claimed entries must have been idle half a
     * mark's life, so two members taking over from the same dead one do not take from each other.
     */
    async takeOverDeadMembers() {
      for (const stream of streams) {
        const members = (await redis.xinfo('CONSUMERS', stream, group)) as Array<Array<string | number>>;
        for (const fields of members) {
          const info = infoOf(fields);
          const name = String(info.name);
          if (name === consumer || (await isAlive(redis, group, name))) continue;
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
          )) as Claimed;
          if (claimed.length) {
            logger.info(
              { stream, group, from: name, entries: claimed.length },
              'took over the pending entries of a consumer that is gone',
            );
            await handleClaimed(stream, claimed);
          }
        }
      }
    },

    /** Takes the entries any member has held longer than `claimIdleMs`. */
    async claimIdle() {
      for (const stream of streams) {
        const [, claimed] = (await redis.xautoclaim(
          stream,
          group,
          consumer,
          options.claimIdleMs,
          '0-0',
          'COUNT',
          count,
        )) as [string, Claimed];
        if (claimed.length) await handleClaimed(stream, claimed);
      }
    },
  };
}
