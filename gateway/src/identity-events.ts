import { eventStream, parseStreamEntry, type Logger, type Redis } from '@hub/common';

/**
 * Follows identity's event stream and tells `onUserChanged` about every user whose credentials
 * or rights may have changed, so cached principals die with the change rather than with the TTL.
 * Reads from the stream's end: older events are covered by the cache TTL.
 */
export function followIdentityEvents(deps: { redis: Redis; logger: Logger; onUserChanged: (userId: number) => void }) {
  const stream = eventStream('identity');
  let stopped = false;
  let lastId = '$';
  const loop = (async () => {
    while (!stopped) {
      try {
        const result = (await deps.redis.xread('BLOCK', 2000, 'STREAMS', stream, lastId)) as
          | Array<[string, Array<[string, string[]]>]>
          | null;
        for (const [, entries] of result ?? []) {
          for (const [id, fields] of entries) {
            lastId = id;
            const event = parseStreamEntry('identity', id, fields);
            const userId = Number(event.payload.user_id);
            if (Number.isInteger(userId)) deps.onUserChanged(userId);
          }
        }
      } catch (error) {
        if (stopped) break;
        deps.logger.warn({ err: error }, 'identity event stream unavailable; principals expire by TTL');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      deps.redis.disconnect();
      await loop;
    },
  };
}
