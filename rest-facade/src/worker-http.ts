import type { Logger } from '@hub/common';
import type { GitShards } from '@hub/protos';
import { Pool } from 'undici';

/**
 * One keep-alive pool per git worker shard's HTTP port, shared by what the facade streams from
 * it: clones and pushes, and blob downloads. No body timeout: a clone of a large repository to a
 * slow client may pause for long; headers still time out.
 */
export function createWorkerPools(shards: Pick<GitShards, 'names' | 'httpUrl'>) {
  const pools = new Map(
    shards.names.map((name) => [
      name,
      new Pool(shards.httpUrl(name), {
        connections: 64,
        keepAliveTimeout: 30_000,
        bodyTimeout: 0,
        headersTimeout: 60_000,
      }),
    ]),
  );
  return {
    /** The pool of a shard; a shard GIT_WORKER_SHARDS does not name is a configuration error. */
    of(storage: string): Pool {
      const pool = pools.get(storage);
      if (!pool) throw new Error(`shard "${storage}" is not named in GIT_WORKER_SHARDS`);
      return pool;
    },
    close: () => Promise.all([...pools.values()].map((pool) => pool.close())),
  };
}

export type WorkerPools = ReturnType<typeof createWorkerPools>;

/**
 * The worker answers the facade 403 only when it refuses the facade's signed claims (its other
 * 403s, a dumb-protocol request and a push the claims do not allow, the facade refuses itself
 * before it asks). The facade signs claims only for what it has authorized, so a refusal is a
 * fault of the deployment (PRINCIPAL_SECRET differs between the two, or their clocks are further
 * apart than the claims' five minutes), not of the client's request. Callers answer 503 rather than pass the 403 on, which would tell the
 * client it may not read what it may; a rollout's mismatch usually passes. The log says what to fix.
 */
export const WORKER_REFUSED = 403;

export function logWorkerRefusal(logger: Logger, context: { storage: string; path: string }): void {
  logger.error(
    context,
    "the git worker refused the facade's signed claims: PRINCIPAL_SECRET differs between them, or their clocks are more than 5 minutes apart",
  );
}
