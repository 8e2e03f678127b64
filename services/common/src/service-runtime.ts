import { resolve } from 'node:path';
import type { Server } from 'node:http';
import type { Router } from 'express';
import { accessChangeHandler, createAccessClient, type AccessClient } from './access-client';
import type { Config } from './config';
import { createCursors } from './connections';
import { createSql, type Sql } from './db';
import { consumeEvents, followChanges, type ChangeHandler } from './event-streams';
import { closeServer, onShutdown } from './http-server';
import { createInternalClient, type InternalClient } from './internal-http';
import { createLogger, type Logger } from './logger';
import { migrate } from './migrate';
import { startOutboxRelay } from './outbox';
import type { Principal } from './principal';
import { createRedis, type Redis } from './redis';
import { createSettingsClient, settingsChangeHandler, type SettingsClient } from './settings-client';
import { serveSubgraph } from './subgraph';

/** What every service reads to run; ACCESS_CACHE_TTL_MS only where it asks membership about projects. */
export type RuntimeConfig = Pick<
  Config,
  | 'LOG_LEVEL'
  | 'DATABASE_URL'
  | 'DB_POOL_MAX'
  | 'REDIS_URL'
  | 'PRINCIPAL_SECRET'
  | 'EVENTS_STREAM_MAXLEN'
  | 'SHUTDOWN_GRACE_MS'
> &
  Partial<Pick<Config, 'ACCESS_CACHE_TTL_MS'>>;

type Closer = () => Promise<unknown>;

/** The services whose URL the config holds (`MEMBERSHIP_URL` → `membership`). */
type UrlNamed<C> = { [K in keyof C]: K extends `${infer S}_URL` ? Lowercase<S> : never }[keyof C];

/**
 * When a closer runs at shutdown, after every closer of the stages before it. `intake`: servers
 * and workers stop taking work (their running requests and jobs finish); `work`: event consumers,
 * change followers and timers; then the outbox relay, so events the work recorded still go out;
 * `resources`: clients, queues and pools; last Postgres and Redis.
 */
export type ShutdownStage = 'intake' | 'work' | 'resources';

/**
 * One service process's shared start-up: logger, Postgres (migrated), Redis, the outbox relay, and
 * factories for what most services hold besides (internal clients, the access client, event
 * consumers, change followers, the subgraph server), each registered for shutdown as it is made.
 * SIGTERM and SIGINT stop them stage by stage (ShutdownStage), within SHUTDOWN_GRACE_MS.
 *
 * `root` is the service's package folder: migrations/ and src/schema.graphql are found there.
 */
export async function createServiceRuntime<C extends RuntimeConfig>(options: {
  service: string;
  config: C;
  root: string;
  /** The logger's name, when it is not the service's (the git worker's is `git-worker`). */
  logName?: string;
}) {
  const { service, config, root } = options;
  const logger: Logger = createLogger(options.logName ?? service, config.LOG_LEVEL);
  const stages = createShutdownStages(logger);
  const onStop = (stage: ShutdownStage, close: Closer) => stages.add(stage, close);
  /** What the caches made here must drop when events make it stale (see followChanges). */
  const cacheHandlers: ChangeHandler[] = [];
  let following = false;

  const sql: Sql = createSql({ url: config.DATABASE_URL, schema: service, max: config.DB_POOL_MAX });
  const redis: Redis = createRedis(config.REDIS_URL);
  // Registered before anything can fail, so a signal during start-up stops what is running.
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => stages.run(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
  await migrate({ sql, schema: service, dir: resolve(root, 'migrations'), logger });
  // Every service records events in its outbox, and every process relays them: one relay per
  // schema works at a time, so replicas and roles each keep the events moving.
  const relay = startOutboxRelay({ sql, redis, service, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  stages.add('relay', () => relay.stop());

  return {
    service,
    config,
    logger,
    sql,
    redis,
    cursors: createCursors(config.PRINCIPAL_SECRET),
    /** Runs `close` at shutdown in `stage`, after what that stage registered before it. */
    onStop,
    /**
     * Clients of other services' internal routes, signed as this service, by the name of their
     * URL setting (`membership` for MEMBERSHIP_URL); closed at shutdown.
     */
    internalClients<K extends UrlNamed<C>>(...names: K[]): Record<K, InternalClient> {
      const clients = {} as Record<K, InternalClient>;
      for (const name of names) {
        const baseUrl = config[`${name.toUpperCase()}_URL` as keyof C] as string;
        const client = createInternalClient({ baseUrl, secret: config.PRINCIPAL_SECRET, caller: service });
        onStop('resources', () => client.close());
        clients[name] = client;
      }
      return clients;
    },
    /** Project access answers from membership, cached for ACCESS_CACHE_TTL_MS and dropped on team and project changes (followChanges). */
    accessClient(membership: InternalClient): AccessClient {
      if (config.ACCESS_CACHE_TTL_MS === undefined) throw new Error(`${service} does not read ACCESS_CACHE_TTL_MS`);
      const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });
      cacheHandlers.push(accessChangeHandler(access, logger));
      return access;
    },
    /** The application settings from identity, cached and dropped when an admin changes them (followChanges). */
    settingsClient(identity: InternalClient): SettingsClient {
      const settings = createSettingsClient({ identity, logger });
      cacheHandlers.push(settingsChangeHandler(settings, logger));
      return settings;
    },
    /** A cache of the service's own that every replica keeps: `handler` drops what events make stale (followChanges). */
    followedCache(handler: ChangeHandler): void {
      cacheHandlers.push(handler);
    },
    /** consumeEvents as this service's group, on a blocking connection of its own; stopped at shutdown. */
    consumeEvents(consumer: Omit<Parameters<typeof consumeEvents>[0], 'redis' | 'group' | 'logger'>) {
      const consuming = consumeEvents({
        ...consumer,
        redis: createRedis(config.REDIS_URL, { blocking: true }),
        group: service,
        logger,
      });
      onStop('work', () => consuming.stop());
      return consuming;
    },
    /**
     * Every replica drops what events made stale in the caches made here (access answers, the
     * settings copy): one followChanges, on one blocking connection of its own, for all of them;
     * stopped at shutdown. Called once, after the caches are made.
     */
    followChanges() {
      if (following) throw new Error('followChanges runs once per process');
      following = true;
      const follower = followChanges({
        redis: createRedis(config.REDIS_URL, { blocking: true }),
        logger,
        handlers: cacheHandlers,
      });
      onStop('work', () => follower.stop());
      return follower;
    },
    /** The subgraph (serveSubgraph) with this service's schema, secret and logger; closed first at shutdown. */
    async serveSubgraph<TContext extends { principal: Principal }>(subgraph: {
      port: number;
      resolvers: unknown;
      createContext: (principal: Principal) => TContext;
      routers?: Router[];
    }): Promise<Server> {
      const server = await serveSubgraph<TContext>({
        ...subgraph,
        service,
        sql,
        sdlPath: resolve(root, 'src', 'schema.graphql'),
        principalSecret: config.PRINCIPAL_SECRET,
        logger,
      });
      onStop('intake', () => closeServer(server));
      return server;
    },
  };
}

export type ServiceRuntime<C extends RuntimeConfig = RuntimeConfig> = Awaited<
  ReturnType<typeof createServiceRuntime<C>>
>;

/**
 * Closers run stage by stage, in the order each stage was given them. The relay's own stage sits
 * between work and resources: events the last work recorded still go out. A closer that fails is
 * logged, and the rest still run.
 */
export function createShutdownStages(logger: Logger) {
  const order = ['intake', 'work', 'relay', 'resources'] as const;
  const closers: Record<(typeof order)[number], Closer[]> = { intake: [], work: [], relay: [], resources: [] };
  return {
    add(stage: (typeof order)[number], close: Closer): void {
      closers[stage].push(close);
    },
    async run(): Promise<void> {
      for (const stage of order)
        for (const close of closers[stage]) {
          try {
            await close();
          } catch (error) {
            logger.warn({ err: error, stage }, 'error during shutdown');
          }
        }
    },
  };
}
