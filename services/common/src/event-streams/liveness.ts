import type { Redis } from '../redis';
import { sleep } from './stream-reply';

/**
 * A consumer marks itself alive in Redis for this long, renewing the mark three times as often.
 * Once its mark is gone (SIGKILL, a lost node), another member takes its pending entries at once
 * instead of after `claimIdleMs`: a project created as membership died had to wait 60–90 s for
 * its access facts, and a repository as long for its `git init`.
 */
export const ALIVE_TTL_MS = 3_000;

/** The key a consumer of `group` keeps while it runs. */
export const consumerAliveKey = (group: string, consumer: string) => `events:alive:${group}:${consumer}`;

/** Whether `consumer` of `group` still marks itself alive. */
export const isAlive = async (redis: Redis, group: string, consumer: string) =>
  (await redis.exists(consumerAliveKey(group, consumer))) > 0;

/**
 * The alive mark of one consumer, kept on a connection of its own: the marks must go out while the
 * consumer's connection is held by XREADGROUP BLOCK, and must not queue up while Redis is away.
 */
export function keepAlive(redis: Redis, group: string, consumer: string) {
  const marks = redis.duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  marks.on('error', () => {}); // the consumer's loop reports Redis being away
  const mark = () => marks.set(consumerAliveKey(group, consumer), '1', 'PX', ALIVE_TTL_MS).catch(() => {});
  const marking = setInterval(mark, ALIVE_TTL_MS / 3);
  marking.unref();
  return {
    /**
     * The first mark, before joining the group, or another member could take this one for dead.
     * A Redis that is away holds it for a second at most; the consumer then retries as it does.
     */
    async first() {
      if (marks.status !== 'ready')
        await Promise.race([new Promise((resolve) => marks.once('ready', resolve)), sleep(1000)]);
      await mark();
    },
    /** Gone for good: no mark, so the others take over whatever it left pending at once. */
    async stop() {
      clearInterval(marking);
      await marks.del(consumerAliveKey(group, consumer)).catch(() => {});
      marks.disconnect();
    },
  };
}
