import { Redis } from 'ioredis';

export type { Redis };

/**
 * Commands fail fast while Redis is away (no offline queue), so callers such as the outbox
 * relay see the outage and keep their data where it is instead of piling it up in memory.
 */
export function createRedis(url: string, options: { blocking?: boolean; autoPipelining?: boolean } = {}): Redis {
  return new Redis(url, {
    lazyConnect: false,
    // A connection read on every request: commands issued in one tick go out in one write (one
    // syscall, one wake-up of Redis) instead of one each.
    enableAutoPipelining: !!options.autoPipelining,
    enableOfflineQueue: !!options.blocking,
    maxRetriesPerRequest: options.blocking ? null : 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

export async function pingRedis(redis: Redis): Promise<void> {
  await redis.ping();
}
