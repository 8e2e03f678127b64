import type { GitShards } from '@hub/protos';
import { Pool } from 'undici';

/**
 * One keep-alive pool per git worker shard's HTTP port, shared by what the facade streams from
 * it: clones and pushes, and blob downloads. No body timeout: a clone of a large repository to a
 * slow client may pause for long; headers still time out.
 */
export function createWorkerPools(shards: Pick<GitShards, 'names' | 'httpUrl'>) {
  const pools = new Map(
    shards.names.map((name) => [name, new Pool(shards.httpUrl(name), { connections: 64, keepAliveTimeout: 30_000, bodyTimeout: 0, headersTimeout: 60_000 })]),
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
