// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  closeServer,
  consumeEvents,
  createAccessClient,
  createCursors,
  createInternalClient,
  createKnownEventReader,
  createLogger,
  createRedis,
  createSql,
  exitOnStartupFailure,
  followAccessChanges,
  migrate,
  projectsLookup,
  onShutdown,
  serveSubgraph,
  startOutboxRelay,
} from '@hub/common';
import { createGitShards } from '@hub/protos';
import type { MergeRequestsContext } from './context';
import { deleteProjectMergeRequests, removeLabel, renameLabel } from './db/merge-requests';
import { loadMergeRequestsConfig, SERVICE } from './env';
import { createInternalRoutes } from './internal/routes';
import { createMergeRequestsService } from './merge-requests-service';
import { createResolvers } from './resolvers';

/** Composition root: config → clients → services → server → health → listen → shutdown. */
async function main() {
  const config = loadMergeRequestsConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  const redis = createRedis(config.REDIS_URL);
  const internal = { secret: config.PRINCIPAL_SECRET, caller: SERVICE };
  const membership = createInternalClient({ ...internal, baseUrl: config.MEMBERSHIP_URL });
  const repository = createInternalClient({ ...internal, baseUrl: config.REPOSITORY_URL });
  const projects = createInternalClient({ ...internal, baseUrl: config.PROJECTS_URL });
  const notes = createInternalClient({ ...internal, baseUrl: config.NOTES_URL });
  const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });
  const git = createGitShards({
    shards: config.GIT_WORKER_SHARDS,
    caller: { caller: SERVICE, secret: config.PRINCIPAL_SECRET, logger },
    lookup: async (projectId) =>
      (await projects.call(projectsLookup, { ids: [projectId] })).projects[0]?.repositoryStorage ?? null,
  });

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  const mergeRequests = createMergeRequestsService({ sql, access, git, repository, projects, notes, logger });
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  // A deleted project takes its merge requests with it; a renamed or removed label (kept by
  // notes) is renamed or removed on the project's merge requests.
  const readEvent = createKnownEventReader(logger);
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: ['projects', 'notes'],
    logger,
    handle: async (event) => {
      const known = readEvent(event);
      if (known?.key === 'projects:project.deleted') await deleteProjectMergeRequests(sql, known.payload.project_id);
      if (known?.key === 'notes:label.updated' && known.payload.title !== null)
        await renameLabel(sql, known.payload.project_id, known.payload.previous_title, known.payload.title);
      if (known?.key === 'notes:label.deleted')
        await removeLabel(sql, known.payload.project_id, known.payload.previous_title);
    },
  });
  // Every replica drops cached access answers a team or project change made stale.
  const invalidation = followAccessChanges({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    access,
    logger,
  });

  const server = await serveSubgraph<MergeRequestsContext>({
    service: SERVICE,
    port: config.MERGEREQUESTS_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({ sql, mergeRequests, git, cursors: createCursors(config.PRINCIPAL_SECRET) }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal }),
    routers: [createInternalRoutes({ sql, secret: config.PRINCIPAL_SECRET, logger })],
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => consumer.stop(),
    () => invalidation.stop(),
    () => relay.stop(),
    () => membership.close(),
    () => repository.close(),
    () => projects.close(),
    () => notes.close(),
    async () => git.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
