// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  accessChangeHandler,
  closeServer,
  consumeEvents,
  createAccessClient,
  createCursors,
  createInternalClient,
  createLogger,
  createRedis,
  createSettingsClient,
  createSql,
  exitOnStartupFailure,
  followChanges,
  migrate,
  onShutdown,
  serveSubgraph,
  settingsChangeHandler,
  startOutboxRelay,
} from '@hub/common';
import { createGitShards } from '@hub/protos';
import { createLoaders, type RepositoryContext } from './context';
import { storageOf } from './db/project-storages';
import { loadRepositoryConfig, SERVICE } from './env';
import { createEventHandler, createEventOrder } from './events';
import { createGit } from './git';
import { createInternalRoutes } from './internal/routes';
import { createResolvers } from './resolvers';

/** Composition root: config → clients → server → health → listen → shutdown. */
async function main() {
  const config = loadRepositoryConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  const membership = createInternalClient({
    baseUrl: config.MEMBERSHIP_URL,
    secret: config.PRINCIPAL_SECRET,
    caller: SERVICE,
  });
  const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });
  const identity = createInternalClient({
    baseUrl: config.IDENTITY_URL,
    secret: config.PRINCIPAL_SECRET,
    caller: SERVICE,
  });
  // default_branch_protection decides how a first push protects the default branch.
  const settings = createSettingsClient({ identity, logger });
  const shards = createGitShards({
    shards: config.GIT_WORKER_SHARDS,
    caller: { caller: SERVICE, secret: config.PRINCIPAL_SECRET, logger },
    lookup: (projectId) => storageOf(sql, projectId),
  });
  const git = createGit(shards);

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  // Protections made by hand go out as events (the branches' versions advance with them).
  const redis = createRedis(config.REDIS_URL);
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: ['projects', 'git_worker'],
    logger,
    handle: createEventHandler({ sql, git, shards, logger, settings }),
    orderKeys: createEventOrder(logger),
  });
  // Every replica drops cached access answers a team or project change made stale, and its
  // settings copy when an admin changes them: one blocking connection for both.
  const invalidation = followChanges({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    logger,
    handlers: [accessChangeHandler(access, logger), settingsChangeHandler(settings, logger)],
  });

  const server = await serveSubgraph<RepositoryContext>({
    service: SERVICE,
    port: config.REPOSITORY_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({ sql, git, identity, cursors: createCursors(config.PRINCIPAL_SECRET) }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
    routers: [createInternalRoutes({ sql, git, secret: config.PRINCIPAL_SECRET, logger })],
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => relay.stop(),
    () => consumer.stop(),
    () => invalidation.stop(),
    () => membership.close(),
    () => identity.close(),
    async () => shards.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
