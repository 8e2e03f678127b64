import { CONFIG_TABLE } from '@hub/common';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { clearState, launcherAlive, readState, stopLeftovers, writeState, type LauncherState } from './leftovers';
import { PROCESSES, REPO_ROOT, startProcess, waitReady, type LogSink, type RunningProcess } from './processes';
import { startPostgres } from './postgres-server';
import { startRedis } from './redis-server';
import { supervise, type Supervised } from './supervisor';
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

/** The processes a stack runs: each kind's replicas, then the extra git worker shards. */
function processNames(options: Pick<StackOptions, 'replicas' | 'shards'>) {
  for (const kind of Object.keys(options.replicas ?? {})) {
    if (!PROCESSES.some((p) => p.name === kind)) throw new Error(`no process kind named ${kind}`);
    if (kind === 'git-worker') throw new Error('git workers are shards, not replicas: ask for shards instead');
  }
  const replicas = PROCESSES.flatMap((spec) =>
    Array.from({ length: Math.max(1, options.replicas?.[spec.name] ?? 1) }, (_, i) => ({
      name: i === 0 ? spec.name : `${spec.name}-${i + 1}`,
      spec,
      shard: 0,
    })),
  );
  const git = PROCESSES.find((p) => p.name === 'git-worker')!;
  const shards = Array.from({ length: Math.max(0, (options.shards ?? 1) - 1) }, (_, i) => ({
    name: `git-worker-${i + 2}`,
    spec: git,
    shard: i + 2,
  }));
  return [...replicas, ...shards];
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
    let pg: Awaited<ReturnType<typeof startPostgres>> | null = null;
    if (!env.DATABASE_URL) {
      pg = await startPostgres({
        dir: join(dataDir, 'postgres'),
        port: await port('LOCAL_POSTGRES_PORT', 15432),
        log: options.log,
        durable: options.durable ?? false,
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
      redisOptions.port = await port('LOCAL_REDIS_PORT', 16379);
      redis = await startRedis(redisOptions);
      stops.unshift(() => redis?.stop() ?? Promise.resolve());
      env.REDIS_URL = redis.url;
      state.servers.push({ pidFile: redis.pidFile, comm: 'redis-server', signal: 'SIGTERM' });
      writeState(dataDir, state);
    }
    for (const { portVariable } of PROCESSES) await port(portVariable, Number(CONFIG_TABLE[portVariable].fallback));
    // The git worker's second port (gRPC), beside the HTTP one it is health-checked on.
    await port('GIT_WORKER_GRPC_PORT', Number(CONFIG_TABLE.GIT_WORKER_GRPC_PORT.fallback));
    env.PRINCIPAL_SECRET ??= randomBytes(32).toString('base64url');
    // Identity seals private tokens with this key: it must outlive restarts, so it stays with the data.
    env.TOKEN_ENCRYPTION_KEY ??= keptSecret(join(dataDir, 'token-encryption.key'));
    // Repositories live with the rest of this stack's data, never in a folder another stack shares.
    env.REPOS_ROOT ??= join(dataDir, 'repositories');
    env.EXTERNAL_URL ??= `http://localhost:${env.PORT}`;
    // Webhook receivers of a local system run on this machine too (production leaves this off).
    env.HOOKS_ALLOW_LOCAL ??= 'true';
    // Every process beyond the first of its kind, and every shard beyond the first, gets its ports
    // here (before anything starts: GIT_WORKER_SHARDS names them all).
    const names = processNames(options);
    const overrides = new Map<string, NodeJS.ProcessEnv>();
    for (const { name, spec, shard } of names) {
      if (name === spec.name) continue;
      const own: NodeJS.ProcessEnv = { [spec.portVariable]: String(await freePort()) };
      if (shard)
        Object.assign(own, {
          GIT_WORKER_GRPC_PORT: String(await freePort()),
          REPOS_ROOT: `${env.REPOS_ROOT}-shard${shard}`,
        });
      overrides.set(name, own);
    }
    // Locally no load balancer stands in front of a kind's replicas: replica K of a kind calls
    // replica K of each other kind that has one (the K-th facade the K-th gateway and subgraphs),
    // so every replica serves requests and not only the first.
    for (const { name, spec, shard } of names) {
      const k = /-(\d+)$/.exec(name)?.[1];
      if (shard || name === spec.name || !k) continue;
      for (const other of names) {
        if (other.shard || other.spec === spec || other.name !== `${other.spec.name}-${k}`) continue;
        const urlVariable = other.spec.portVariable.replace(/_PORT$/, '_URL');
        if (urlVariable !== other.spec.portVariable && urlVariable in CONFIG_TABLE) {
          overrides.get(name)![urlVariable] = `http://127.0.0.1:${overrides.get(other.name)![other.spec.portVariable]}`;
        }
      }
    }
    if (names.some((n) => n.shard)) {
      const shardOf = (name: string, grpc: string, http: string) =>
        `${name}=127.0.0.1:${grpc};http://127.0.0.1:${http}`;
      env.GIT_WORKER_SHARDS = [
        shardOf('default', env.GIT_WORKER_GRPC_PORT!, env.GIT_WORKER_HTTP_PORT!),
        ...names
          .filter((n) => n.shard)
          .map((n) =>
            shardOf(
              `shard${n.shard}`,
              overrides.get(n.name)!.GIT_WORKER_GRPC_PORT!,
              overrides.get(n.name)!.GIT_WORKER_HTTP_PORT!,
            ),
          ),
      ].join(',');
    }

    const seeded = JSON.parse(
      (await run(process.execPath, [join(REPO_ROOT, 'services/identity/dist/seed-root.js')], { env }))
        .trim()
        .split('\n')
        .pop()!,
    ) as { token: string; password: string | null };

    const supervised = new Map<string, Supervised>();
    const replicas: RunningProcess[] = [];
    /** Records a process's pid, so whoever finds this stack's launcher dead can stop it. */
    const track = (key: string, running: RunningProcess, entry: string) => {
      state.services = state.services.filter((s) => s.name !== key);
      if (running.child.pid) state.services.push({ name: key, pid: running.child.pid, entry });
      writeState(dataDir, state);
    };
    const specOf = (name: string) => names.find((n) => n.name === name)!.spec;
    const urlOf = (name: string) => {
      const spec = specOf(name);
      return `http://127.0.0.1:${overrides.get(name)?.[spec.portVariable] ?? env[spec.portVariable]}`;
    };
    const launch = async (name: string) => {
      const spec = specOf(name);
      const index = PROCESSES.indexOf(spec);
      supervised.set(
        name,
        await supervise({
          name,
          start: () =>
            startProcess({
              name,
              entry: spec.entry,
              env: { ...env, ...spec.env, ...overrides.get(name) },
              logs: options.logs,
              index,
              semiSpaceMiB: spec.semiSpaceMiB,
            }),
          ready: (running) => waitReady(running, urlOf(name)),
          log: options.log,
          onStart: (running) => track(name, running, spec.entry),
          onGiveUp: options.onGiveUp ?? (() => {}),
        }),
      );
    };
    stops.unshift(async () => {
      for (const p of replicas) await p.stop();
      for (const s of [...supervised.values()].reverse()) await s.stop();
    });
    for (const tier of [0, 1, 2]) {
      // Every launch of the tier settles before a failure is thrown: one still waiting for its
      // process to get ready would add it to `supervised` after the stops below ran, leaving it
      // (and its readiness polls) running in the caller's process.
      const launched = await Promise.allSettled(names.filter((n) => n.spec.tier === tier).map((n) => launch(n.name)));
      const failed = launched.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed) throw failed.reason;
    }

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
      urls: Object.fromEntries(names.map((n) => [n.name, urlOf(n.name)])),
      env,
      rootToken: seeded.token,
      rootPassword: seeded.password,
      get processes() {
        return [...supervised.values()].map((s) => s.current());
      },
      restarts: (name) => supervised.get(name)?.restarts() ?? 0,
      stopProcess: async (name) => {
        await supervised.get(name)?.stop();
      },
      restart: async (name) => {
        await supervised.get(name)?.stop();
        await launch(name);
      },
      startReplica: async (name, settings = {}) => {
        const index = PROCESSES.findIndex((p) => p.name === name);
        const spec = PROCESSES[index];
        const replicaPort = await freePort();
        const running = startProcess({
          name: `${name}-${replicas.length + 2}`,
          entry: spec.entry,
          env: { ...env, ...spec.env, ...settings, [spec.portVariable]: String(replicaPort) },
          logs: options.logs,
          index,
          semiSpaceMiB: spec.semiSpaceMiB,
        });
        replicas.push(running);
        track(running.name, running, spec.entry);
        const url = `http://127.0.0.1:${replicaPort}`;
        await waitReady(running, url);
        return Object.assign(running, { url });
      },
      restartPostgres: async (mode) => {
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
      stop,
    };
  } catch (error) {
    for (const s of stops) await s().catch(() => {});
    clearState(dataDir);
    keeper.release();
    throw error;
  }
}

/**
 * Takes the data folder for this launcher: refuses while another launcher runs on it, and stops
 * what one that died left running (its launcher.json says what).
 */
async function claim(dataDir: string, log: (line: string) => void): Promise<LauncherState> {
  const previous = readState(dataDir);
  if (previous && launcherAlive(previous.pid)) {
    throw new Error(
      `another launcher (pid ${previous.pid}) is running on ${dataDir}: stop it first, or use another DATA_DIR`,
    );
  }
  if (previous) {
    const stopped = await stopLeftovers(previous);
    if (stopped.length) log(`a launcher that died left processes running; stopped ${stopped.join(', ')}`);
  }
  const state: LauncherState = { pid: process.pid, services: [], servers: [] };
  writeState(dataDir, state);
  return state;
}

/**
 * Starts the keeper (keeper.ts), which stops what this launcher leaves running if it dies.
 * Neither the keeper nor its pipe keeps this process alive; `release` lets it go.
 */
function startKeeper(dataDir: string) {
  const keeper = spawn(process.execPath, [join(REPO_ROOT, 'infra/local/dist/keeper.js'), dataDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  const line = keeper.stdio[3] as Socket;
  keeper.unref();
  line.unref();
  return { release: () => line.destroy() };
}

/** A random secret kept in a file only its owner reads, the same on every start with this data folder. */
function keptSecret(file: string): string {
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
