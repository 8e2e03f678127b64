import { resolve } from 'node:path';
import {
  closeServer,
  consumeEvents,
  createAccessClient,
  createInternalClient,
  createLogger,
  createRedis,
  createSql,
  exitOnStartupFailure,
  followAccessChanges,
  handleOnce,
  migrate,
  onShutdown,
  serveSubgraph,
  startOutboxRelay,
  type StreamedEvent,
} from '@hub/common';
import { createLoaders, type NotesContext } from './context';
import { deleteProjectIssues } from './db/issues';
import { deleteProjectNotes } from './db/notes';
import { deleteProjectSnippets } from './db/snippets';
import { loadNotesConfig, SERVICE } from './env';
import { createNotesService, type NotesService } from './notes-service';
import { createResolvers } from './resolvers';

/** GitLab's system notes for merge request state changes. */
const STATUS_NOTES: Record<string, string> = {
  'merge_request.closed': 'Status changed to closed',
  'merge_request.reopened': 'Status changed to reopened',
  'merge_request.merged': 'Status changed to merged',
};

function createEventHandler(sql: Parameters<typeof handleOnce>[0], notes: NotesService) {
  return async (event: StreamedEvent) => {
    if (event.service === 'projects' && event.type === 'project.deleted') {
      await deleteProjectNotes(sql, Number(event.payload.project_id));
      await deleteProjectIssues(sql, Number(event.payload.project_id));
      await deleteProjectSnippets(sql, Number(event.payload.project_id));
    } else if (event.service === 'mergerequests' && STATUS_NOTES[event.type]) {
      const p = event.payload;
      await handleOnce(sql, event, (tx) =>
        notes.addSystemNote(tx, { projectId: Number(p.project_id), noteableType: 'MergeRequest', noteableId: Number(p.merge_request_id) }, Number(p.actor_id), STATUS_NOTES[event.type]),
      );
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
  const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  const notes = createNotesService({ sql, access, mergeRequests });
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: ['projects', 'mergerequests'],
    logger,
    handle: createEventHandler(sql, notes),
  });
  // Every replica drops cached access answers a team or project change made stale.
  const invalidation = followAccessChanges({ redis: createRedis(config.REDIS_URL, { blocking: true }), access, logger });

  const server = await serveSubgraph<NotesContext>({
    service: SERVICE,
    port: config.NOTES_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({ sql, notes }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => consumer.stop(),
    () => invalidation.stop(),
    () => relay.stop(),
    () => membership.close(),
    () => mergeRequests.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
