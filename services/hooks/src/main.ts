// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  closeServer,
  createLogger,
  createObservedApp,
  createServiceRuntime,
  exitOnStartupFailure,
  listen,
  pingSql,
  type ServiceRuntime,
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

/** How often a worker looks after the log: trims it, and re-queues deliveries left without a job. */
const MAINTAIN_EVERY_MS = 60_000;
/** A delivery pending this long may have lost its job (queueing failed); re-adding is harmless. */
const STALE_PENDING_MS = 5 * 60_000;
/** How long payloads reuse what projects and identity said about a project or user. */
const DIRECTORY_TTL_MS = 5_000;

/** The API: the subgraph (project and system hooks, their log, re-sends, tests). */
async function startSubgraph(runtime: ServiceRuntime<HooksConfig>, queue: DeliveryQueue): Promise<void> {
  const { sql, config } = runtime;
  const { membership } = runtime.internalClients('membership');
  const access = runtime.accessClient(membership);
  const hooks = createHooksService({ sql, access, queue, allowLocal: config.HOOKS_ALLOW_LOCAL });
  const systemHooks = createSystemHooksService({ sql, queue, allowLocal: config.HOOKS_ALLOW_LOCAL });
  runtime.followChanges();
  await runtime.serveSubgraph<HooksContext>({
    port: config.HOOKS_PORT,
    resolvers: createResolvers({ sql, hooks, systemHooks, cursors: runtime.cursors }),
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
  });
}

/** The workers: events fanned out into deliveries, deliveries sent, the log trimmed. */
async function startWorkers(runtime: ServiceRuntime<HooksConfig>, queue: DeliveryQueue): Promise<void> {
  const { sql, logger, config } = runtime;
  const { projects, identity } = runtime.internalClients('projects', 'identity');
  const directory = createDirectory({ projects, identity, ttlMs: DIRECTORY_TTL_MS });
  runtime.consumeEvents({
    services: CONSUMED_SERVICES,
    handle: createFanOut({ sql, directory, queue, logger }),
    // Fan-out is idempotent (one delivery per event and hook, deterministic job ids), so a dead
    // worker's events can move on quickly.
    claimIdleMs: 10_000,
  });
  const sender = createSender({ timeoutMs: config.HOOK_TIMEOUT_MS, allowLocal: config.HOOKS_ALLOW_LOCAL });
  runtime.onStop('resources', () => sender.close());
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
  runtime.onStop('work', async () => clearInterval(maintain));

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
  // At shutdown the running deliveries finish first, then the consumer (a later stage) stops taking events.
  runtime.onStop('intake', () => closeServer(server));
  runtime.onStop('intake', () => worker.stop());
}

/** Composition root: config → runtime (Postgres, Redis, relay) → queue → role(s). HOOKS_ROLE picks the process kind. */
async function main() {
  const config = loadHooksConfig();
  // Workers record the events (delivery attempts), but every process relays (the runtime's
  // relay): a deployment of either role alone still gets its events out, and the events of the
  // workers' last attempts wait in the outbox for any relay.
  const runtime = await createServiceRuntime({ service: SERVICE, config, root: resolve(__dirname, '..') });
  const queue = createDeliveryQueue({ redisUrl: config.REDIS_URL, maxAttempts: config.HOOK_MAX_ATTEMPTS });
  runtime.onStop('resources', () => queue.close());
  if (config.HOOKS_ROLE !== 'worker') await startSubgraph(runtime, queue);
  if (config.HOOKS_ROLE !== 'subgraph') await startWorkers(runtime, queue);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
