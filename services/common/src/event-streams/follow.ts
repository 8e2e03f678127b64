import type { Logger } from '../logger';
import { eventStream, parseStreamEntry, type StreamedEvent } from '../outbox';
import type { Redis } from '../redis';
import { sleep, type StreamReply } from './stream-reply';

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
