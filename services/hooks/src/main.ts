// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  closeServer,
  consumeEvents,
  createAccessClient,
  createCursors,
  createInternalClient,
  createLogger,
  createObservedApp,
  createRedis,
  createSql,
  exitOnStartupFailure,
  followAccessChanges,
  listen,
  migrate,
  onShutdown,
  pingSql,
  serveSubgraph,
  startOutboxRelay,
  type Logger,
  type Sql,
} from '@hub/common';
import { Gauge } from 'prom-client';
import { createLoaders, type HooksContext } from './context';
import { stalePendingDeliveries, trimDeliveries } from './db/deliveries';
import { createDeliveryQueue, type DeliveryQueue } from './delivery/queue';
import { requeuePendingDeliveries } from './delivery/requeue';
import { createSender } from './delivery/sender';
import { startDeliveryWorker } from './delivery/worker';
import { loadHooksConfig, SERVICE, type HooksConfig } from './env';
import { createDirectory } from './fanout/directory';
import { CONSUMED_SERVICES, createFanOut } from './fanout/fan-out';
import { createHooksService } from './hooks-service';
import { createResolvers } from './resolvers';
import { createSystemHooksService } from './system-hooks-service';

type Closer = () => Promise<unknown>;
/** How often a worker looks after the log: trims it, and re-queues deliveries left without a job. */
const MAINTAIN_EVERY_MS = 60_000;
/** A delivery pending this long may have lost its job (queueing failed); re-adding is harmless. */
const STALE_PENDING_MS = 5 * 60_000;
/** How long payloads reuse what projects and identity said about a project or user. */
const DIRECTORY_TTL_MS = 5_000;

/** The API: the subgraph (project and system hooks, their log, re-sends, tests). */
async function startSubgraph(config: HooksConfig, sql: Sql, queue: DeliveryQueue, logger: Logger): Promise<Closer[]> {
  const internal = { secret: config.PRINCIPAL_SECRET, caller: SERVICE };
  const membership = createInternalClient({ ...internal, baseUrl: config.MEMBERSHIP_URL });
  const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });
  const hooks = createHooksService({ sql, access, queue, allowLocal: config.HOOKS_ALLOW_LOCAL });
  const systemHooks = createSystemHooksService({ sql, queue, allowLocal: config.HOOKS_ALLOW_LOCAL });
  // Every replica drops cached access answers a team or project change made stale.
  const invalidation = followAccessChanges({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    access,
    logger,
  });
  const server = await serveSubgraph<HooksContext>({
    service: SERVICE,
    port: config.HOOKS_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({ sql, hooks, systemHooks, cursors: createCursors(config.PRINCIPAL_SECRET) }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
  });
  return [() => closeServer(server), () => invalidation.stop(), () => membership.close()];
}

/** The workers: events fanned out into deliveries, deliveries sent, the log trimmed. */
async function startWorkers(config: HooksConfig, sql: Sql, queue: DeliveryQueue, logger: Logger): Promise<Closer[]> {
  const internal = { secret: config.PRINCIPAL_SECRET, caller: SERVICE };
  const projects = createInternalClient({ ...internal, baseUrl: config.PROJECTS_URL });
  const identity = createInternalClient({ ...internal, baseUrl: config.IDENTITY_URL });
  const directory = createDirectory({ projects, identity, ttlMs: DIRECTORY_TTL_MS });
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: CONSUMED_SERVICES,
    logger,
    handle: createFanOut({ sql, directory, queue, logger }),
    // Fan-out is idempotent (one delivery per event and hook, deterministic job ids), so a dead
    // worker's events can move on quickly.
    claimIdleMs: 10_000,
  });
  const sender = createSender({ timeoutMs: config.HOOK_TIMEOUT_MS, allowLocal: config.HOOKS_ALLOW_LOCAL });
  const worker = startDeliveryWorker({
    sql,
    redisUrl: config.REDIS_URL,
    sender,
    logger,
    concurrency: config.HOOK_WORKER_CONCURRENCY,
    retryBaseMs: config.HOOK_RETRY_BASE_MS,
    pauseAfterFailures: config.HOOK_PAUSE_AFTER_FAILURES,
    pauseBaseMs: config.HOOK_PAUSE_BASE_MS,
  });
  // Redis may have lost the queue (a restore from a backup starts with an empty one).
  requeuePendingDeliveries(sql, queue).catch((error) =>
    logger.warn({ err: error }, 'queueing pending deliveries again failed'),
  );
  const maintain = setInterval(() => {
    (async () => {
      await queue.enqueue(await stalePendingDeliveries(sql, STALE_PENDING_MS));
      await trimDeliveries(sql, config.HOOK_LOG_MAX_AGE_DAYS, config.HOOK_LOG_MAX_PER_HOOK);
    })().catch((error) => logger.warn({ err: error }, 'delivery log maintenance failed'));
  }, MAINTAIN_EVERY_MS);
  maintain.unref();

  // Readiness follows Redis (the queue) and Postgres (the log); the queue depth drives autoscaling.
  const { app, registry } = createObservedApp({
    service: `${SERVICE}-worker`,
    readiness: { redis: worker.ready, postgres: () => pingSql(sql) },
    logger,
  });
  new Gauge({
    name: 'hook_queue_depth',
    help: 'Hook deliveries waiting, delayed or being sent',
    registers: [registry],
    async collect() {
      this.set(await queue.depth().catch(() => 0));
    },
  });
  const server = await listen(app, config.HOOKS_WORKER_PORT);
  logger.info({ port: config.HOOKS_WORKER_PORT, worker: worker.name }, 'hook worker running');
  // The running deliveries finish first (SIGTERM), then intake stops.
  return [
    () => closeServer(server),
    () => worker.stop(),
    () => consumer.stop(),
    async () => clearInterval(maintain),
    () => sender.close(),
    () => projects.close(),
    () => identity.close(),
  ];
}

/** Composition root: config → clients → role(s) → shutdown. HOOKS_ROLE picks the process kind. */
async function main() {
  const config = loadHooksConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });
  const queue = createDeliveryQueue({ redisUrl: config.REDIS_URL, maxAttempts: config.HOOK_MAX_ATTEMPTS });
  // Workers record the events (delivery attempts), but every process relays: one relay per schema
  // works at a time, and a deployment of either role alone still gets its events out.
  const redis = createRedis(config.REDIS_URL);
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });

  const closers: Closer[] = [];
  if (config.HOOKS_ROLE !== 'worker') closers.push(...(await startSubgraph(config, sql, queue, logger)));
  if (config.HOOKS_ROLE !== 'subgraph') closers.push(...(await startWorkers(config, sql, queue, logger)));
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    ...closers,
    // After the workers, before Postgres: events of their last attempts wait in the outbox for any relay.
    () => relay.stop(),
    () => queue.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
