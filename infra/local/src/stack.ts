import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startDataServers } from './data-servers';
import { claim, startKeeper } from './launcher';
import { clearState } from './leftovers';
import { REPO_ROOT, type LogSink, type RunningProcess } from './processes';
import { fillSharedEnv, ownSettings, processNames } from './stack-layout';
import { createStackProcesses } from './stack-processes';
import { freePort, run } from './system';

export interface StackOptions {
  /** Where Postgres and Redis keep their data (and logs, when `logs` is files). */
  dataDir: string;
  /** Variables for every process; unset ports are taken from here or picked free when `freePorts`. */
  env: NodeJS.ProcessEnv;
  freePorts: boolean;
  logs: LogSink;
  log: (line: string) => void;
  /**
   * Postgres with fsync and synchronous commits on: `npm start` keeps its data. Off by default,
   * for the test and bench stacks, whose data is thrown away after the run.
   */
  durable?: boolean;
  /** A process crashed again and again, and its supervisor gave up on it (after saying so in `log`). */
  onGiveUp?: (name: string) => void;
  /**
   * Processes per kind (default 1 each), e.g. `{ 'rest-facade': 2, gateway: 2 }`: the others are
   * named `<kind>-2`, `<kind>-3`…, each on a port of its own, supervised like the first.
   */
  replicas?: Record<string, number>;
  /**
   * Git worker shards (default 1): shard 1 is `git-worker` (named default), shard n is
   * `git-worker-<n>` (named shard<n>) with ports and a repositories folder of its own;
   * GIT_WORKER_SHARDS tells every process where each is.
   */
  shards?: number;
}

export interface Stack {
  restUrl: string;
  graphqlUrl: string;
  urls: Record<string, string>;
  env: NodeJS.ProcessEnv;
  rootToken: string;
  rootPassword: string | null;
  processes: RunningProcess[];
  /** Stops one process (for outage tests) and starts it again with the same settings. */
  restart: (name: string) => Promise<void>;
  /** How often the supervisor restarted a process that died. */
  restarts: (name: string) => number;
  stopProcess: (name: string) => Promise<void>;
  /** Starts one more process of a kind (another replica), with its own port; stopped with the stack. */
  startReplica: (name: string, settings?: NodeJS.ProcessEnv) => Promise<RunningProcess & { url: string }>;
  /** Restarts the local Postgres (for chaos tests: `immediate` is a crash and recovery). */
  restartPostgres: (mode: 'fast' | 'immediate') => Promise<void>;
  /** Stops the local Redis (as an outage) and starts it again on the same port and data. */
  stopRedis: () => Promise<void>;
  startRedis: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Brings the whole system up: Postgres and Redis (local processes unless DATABASE_URL /
 * REDIS_URL are given), the root seed, then every process tier by tier, each waited on until ready
 * and supervised from then on (restarted when it dies). Nothing of it outlives the launcher: a
 * keeper process and each service's lifeline stop it all if the launcher dies, and the next
 * launcher on the same data folder stops whatever is left.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const state = await claim(dataDir, options.log);
  const keeper = startKeeper(dataDir);
  const env: NodeJS.ProcessEnv = { ...options.env };
  // The facade runs its queries on a gateway of its own (one hop less per request); the gateway
  // process still serves GraphQL callers. GATEWAY_MODE=remote sends them over HTTP instead.
  env.GATEWAY_MODE ??= 'embedded';
  const stops: Array<() => Promise<void>> = [];
  const port = async (name: string, fallback: number) => {
    if (!env[name]) env[name] = String(options.freePorts ? await freePort() : fallback);
    return Number(env[name]);
  };
  try {
    const servers = await startDataServers({
      dataDir,
      env,
      state,
      stops,
      port,
      log: options.log,
      durable: options.durable ?? false,
    });
    await fillSharedEnv(env, dataDir, port);
    const names = processNames(options);
    const overrides = await ownSettings(env, names);

    const seeded = JSON.parse(
      (await run(process.execPath, [join(REPO_ROOT, 'services/identity/dist/seed-root.js')], { env }))
        .trim()
        .split('\n')
        .pop()!,
    ) as { token: string; password: string | null };

    const processes = createStackProcesses({ ...options, dataDir, state, env, names, overrides });
    stops.unshift(processes.stopAll);
    await processes.launchAll();

    let stopped: Promise<void> | null = null;
    const stop = () =>
      (stopped ??= (async () => {
        for (const s of stops) await s();
        clearState(dataDir);
        keeper.release();
      })());
    return {
      restUrl: `http://127.0.0.1:${env.PORT}/api/v3`,
      graphqlUrl: `http://127.0.0.1:${env.GATEWAY_PORT}/graphql`,
      urls: Object.fromEntries(names.map((n) => [n.name, processes.urlOf(n.name)])),
      env,
      rootToken: seeded.token,
      rootPassword: seeded.password,
      get processes() {
        return processes.processes();
      },
      restarts: processes.restarts,
      stopProcess: processes.stopProcess,
      restart: processes.restart,
      startReplica: processes.startReplica,
      ...servers,
      stop,
    };
  } catch (error) {
    for (const s of stops) await s().catch(() => {});
    clearState(dataDir);
    keeper.release();
    throw error;
  }
}
