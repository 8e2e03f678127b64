// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  closeServer,
  consumeEvents,
  createAccessClient,
  createInternalClient,
  createLogger,
  createRedis,
  createSettingsClient,
  createSql,
  exitOnStartupFailure,
  accessChangeHandler,
  followChanges,
  settingsChangeHandler,
  migrate,
  createCursors,
  onShutdown,
  serveSubgraph,
  startOutboxRelay,
} from '@hub/common';
import { createLoaders, type ProjectsContext } from './context';
import { loadProjectsConfig, SERVICE } from './env';
import { createEventHandler } from './events';
import { createVisibilityRules } from './domain/visibility-rules';
import { createRepositoryPlacement } from './domain/repository-placement';
import { createFactsPush } from './membership-facts';
import { createProjectsService } from './projects-service';
import { createLookupRouter } from './internal/routes';
import { createNodeLookup } from './node-lookup';
import { createResolvers } from './resolvers';

/** Composition root: config → clients → services → server → health → listen → shutdown. */
async function main() {
  const config = loadProjectsConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  const redis = createRedis(config.REDIS_URL);
  const internal = { secret: config.PRINCIPAL_SECRET, caller: SERVICE };
  const identity = createInternalClient({ ...internal, baseUrl: config.IDENTITY_URL });
  const membership = createInternalClient({ ...internal, baseUrl: config.MEMBERSHIP_URL });
  const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });
  const nodeLookup = createNodeLookup({
    ownerUrls: {
      identity: config.IDENTITY_URL,
      notes: config.NOTES_URL,
      mergerequests: config.MERGEREQUESTS_URL,
      hooks: config.HOOKS_URL,
    },
    secret: config.PRINCIPAL_SECRET,
  });

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  const settings = createSettingsClient({ identity });
  const placeRepository = createRepositoryPlacement({ sql, shards: config.GIT_WORKER_NEW_PROJECT_SHARDS });
  const factsPush = createFactsPush({
    membership,
    logger,
    applied: (projectId) => access.invalidateProject(projectId),
  });
  const projects = createProjectsService({
    sql,
    identity,
    membership,
    access,
    visibility: createVisibilityRules({ settings }),
    placeRepository,
    factsPush,
  });
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: ['projects', 'membership', 'identity', 'git_worker', 'mergerequests', 'notes'],
    logger,
    handle: createEventHandler({ sql, projects, externalUrl: config.EXTERNAL_URL, logger }),
  });
  // Every replica drops cached access answers a team or project change made stale, and its
  // settings copy when an admin changes them: one blocking connection for both.
  const invalidation = followChanges({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    logger,
    handlers: [accessChangeHandler(access, logger), settingsChangeHandler(settings, logger)],
  });

  const server = await serveSubgraph<ProjectsContext>({
    service: SERVICE,
    port: config.PROJECTS_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({
      sql,
      projects,
      membership,
      externalUrl: config.EXTERNAL_URL,
      cursors: createCursors(config.PRINCIPAL_SECRET),
    }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, projects, nodeLookup, principal) }),
    routers: [
      createLookupRouter({
        sql,
        secret: config.PRINCIPAL_SECRET,
        logger,
        externalUrl: config.EXTERNAL_URL,
        namespacesByIds: projects.namespacesByIds,
      }),
    ],
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => consumer.stop(),
    () => invalidation.stop(),
    () => relay.stop(),
    () => identity.close(),
    () => membership.close(),
    () => nodeLookup.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
