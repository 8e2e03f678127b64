// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  closeServer,
  consumeEvents,
  createAccessClient,
  createInternalClient,
  createKnownEventReader,
  createLogger,
  createRedis,
  createSettingsClient,
  createSql,
  exitOnStartupFailure,
  accessChangeHandler,
  createCursors,
  followChanges,
  settingsChangeHandler,
  handleOnce,
  migrate,
  onShutdown,
  serveSubgraph,
  startOutboxRelay,
  type Logger,
  type StreamedEvent,
} from '@hub/common';
import { createLoaders, type NotesContext } from './context';
import { deleteProjectRows } from './db/project-rows';
import { loadNotesConfig, SERVICE } from './env';
import { createInternalRoutes } from './internal/routes';
import { createNotesService, type NotesService } from './notes-service';
import { createResolvers } from './resolvers';

/** GitLab's system notes for merge request state changes. */
const STATUS_NOTES = {
  'mergerequests:merge_request.closed': 'Status changed to closed',
  'mergerequests:merge_request.reopened': 'Status changed to reopened',
  'mergerequests:merge_request.merged': 'Status changed to merged',
} as const;

function createEventHandler(sql: Parameters<typeof handleOnce>[0], notes: NotesService, logger: Logger) {
  const read = createKnownEventReader(logger);
  return async (event: StreamedEvent) => {
    const known = read(event);
    switch (known?.key) {
      case 'projects:project.deleted': {
        await deleteProjectRows(sql, known.payload.project_id);
        break;
      }
      case 'mergerequests:merge_request.closed':
      case 'mergerequests:merge_request.reopened':
      case 'mergerequests:merge_request.merged': {
        const p = known.payload;
        // A state change nobody made (no actor) is noted as the merge request's author's.
        const authorId = p.actor_id ?? p.author_id;
        await handleOnce(sql, event, (tx) =>
          notes.addSystemNote(
            tx,
            { projectId: p.project_id, noteableType: 'MergeRequest', noteableId: p.merge_request_id },
            authorId,
            STATUS_NOTES[known.key],
          ),
        );
        break;
      }
    }
  };
}

/** Composition root: config → clients → services → server → health → listen → shutdown. */
async function main() {
  const config = loadNotesConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  const redis = createRedis(config.REDIS_URL);
  const internal = { secret: config.PRINCIPAL_SECRET, caller: SERVICE };
  const membership = createInternalClient({ ...internal, baseUrl: config.MEMBERSHIP_URL });
  const mergeRequests = createInternalClient({ ...internal, baseUrl: config.MERGEREQUESTS_URL });
  const repository = createInternalClient({ ...internal, baseUrl: config.REPOSITORY_URL });
  const identity = createInternalClient({ ...internal, baseUrl: config.IDENTITY_URL });
  const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  // Snippets refuse the visibility levels the application settings restrict to admins.
  const settings = createSettingsClient({ identity });
  const notes = createNotesService({ sql, access, identity, mergeRequests, repository, settings });
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: ['projects', 'mergerequests'],
    logger,
    handle: createEventHandler(sql, notes, logger),
  });
  // Every replica drops cached access answers a team or project change made stale, and its
  // settings copy when an admin changes them: one blocking connection for both.
  const invalidation = followChanges({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    logger,
    handlers: [accessChangeHandler(access, logger), settingsChangeHandler(settings, logger)],
  });

  const server = await serveSubgraph<NotesContext>({
    service: SERVICE,
    port: config.NOTES_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({ sql, notes, cursors: createCursors(config.PRINCIPAL_SECRET) }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
    routers: [createInternalRoutes({ sql, labels: notes, milestones: notes, secret: config.PRINCIPAL_SECRET, logger })],
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => consumer.stop(),
    () => invalidation.stop(),
    () => relay.stop(),
    () => membership.close(),
    () => mergeRequests.close(),
    () => repository.close(),
    () => identity.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
