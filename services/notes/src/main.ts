// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  createKnownEventReader,
  createServiceRuntime,
  createLogger,
  exitOnStartupFailure,
  handleOnce,
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

/** Composition root: config → runtime (Postgres, Redis, relay) → clients → services → server → shutdown. */
async function main() {
  const config = loadNotesConfig();
  const runtime = await createServiceRuntime({ service: SERVICE, config, root: resolve(__dirname, '..') });
  const { sql, logger } = runtime;
  const clients = runtime.internalClients('membership', 'mergerequests', 'repository', 'identity');
  const { membership, repository, identity, mergerequests: mergeRequests } = clients;
  const access = runtime.accessClient(membership);
  // Snippets refuse the visibility levels the application settings restrict to admins.
  const settings = runtime.settingsClient(identity);
  const notes = createNotesService({ sql, access, identity, mergeRequests, repository, settings });
  runtime.consumeEvents({ services: ['projects', 'mergerequests'], handle: createEventHandler(sql, notes, logger) });
  runtime.followChanges();

  await runtime.serveSubgraph<NotesContext>({
    port: config.NOTES_PORT,
    resolvers: createResolvers({ sql, notes, cursors: runtime.cursors }),
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
    routers: [createInternalRoutes({ sql, labels: notes, milestones: notes, secret: config.PRINCIPAL_SECRET, logger })],
  });
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
