import { join } from 'node:path';
import { writeState, type LauncherState } from './leftovers';
import { startPostgres } from './postgres-server';
import { startRedis } from './redis-server';

/**
 * Postgres and Redis as local processes, unless DATABASE_URL / REDIS_URL name servers already
 * there; each one started is recorded in the launcher's state and in `stops` (stopped first last).
 */
export async function startDataServers(options: {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  state: LauncherState;
  stops: Array<() => Promise<void>>;
  port: (variable: string, fallback: number) => Promise<number>;
  log: (line: string) => void;
  durable: boolean;
}) {
  const { dataDir, env, state, stops } = options;
  let pg: Awaited<ReturnType<typeof startPostgres>> | null = null;
  if (!env.DATABASE_URL) {
    pg = await startPostgres({
      dir: join(dataDir, 'postgres'),
      port: await options.port('LOCAL_POSTGRES_PORT', 15432),
      log: options.log,
      durable: options.durable,
    });
    stops.unshift(pg.stop);
    env.DATABASE_URL = pg.url;
    // SIGINT: Postgres's fast shutdown (rolls back open transactions, checkpoints, exits).
    state.servers.push({ pidFile: join(pg.dataDir, 'postmaster.pid'), comm: 'postgres', signal: 'SIGINT' });
    writeState(dataDir, state);
  }
  let redis: Awaited<ReturnType<typeof startRedis>> | null = null;
  const redisOptions = { dir: join(dataDir, 'redis'), port: 0, log: options.log };
  if (!env.REDIS_URL) {
    redisOptions.port = await options.port('LOCAL_REDIS_PORT', 16379);
    redis = await startRedis(redisOptions);
    stops.unshift(() => redis?.stop() ?? Promise.resolve());
    env.REDIS_URL = redis.url;
    state.servers.push({ pidFile: redis.pidFile, comm: 'redis-server', signal: 'SIGTERM' });
    writeState(dataDir, state);
  }
  return {
    restartPostgres: async (mode: 'fast' | 'immediate') => {
      if (!pg) throw new Error('Postgres is not a local process of this stack');
      await pg.restart(mode);
    },
    stopRedis: async () => {
      if (!redis) throw new Error('Redis is not a local process of this stack');
      await redis.stop();
    },
    startRedis: async () => {
      if (!redis) throw new Error('Redis is not a local process of this stack');
      redis = await startRedis(redisOptions);
    },
  };
}
