// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  createKnownEventReader,
  createLogger,
  createServiceRuntime,
  exitOnStartupFailure,
  projectsLookup,
} from '@hub/common';
import { createGitShards } from '@hub/protos';
import type { MergeRequestsContext } from './context';
import { deleteProjectMergeRequests, removeLabel, renameLabel } from './db/merge-requests';
import { loadMergeRequestsConfig, SERVICE } from './env';
import { createInternalRoutes } from './internal/routes';
import { createMergeRequestsService } from './merge-requests-service';
import { createResolvers } from './resolvers';

/** Composition root: config → runtime (Postgres, Redis, relay) → clients → services → server → shutdown. */
async function main() {
  const config = loadMergeRequestsConfig();
  const runtime = await createServiceRuntime({ service: SERVICE, config, root: resolve(__dirname, '..') });
  const { sql, logger } = runtime;
  const clients = runtime.internalClients('membership', 'repository', 'projects', 'notes');
  const { membership, repository, projects, notes } = clients;
  const access = runtime.accessClient(membership);
  const git = createGitShards({
    shards: config.GIT_WORKER_SHARDS,
    caller: { caller: SERVICE, secret: config.PRINCIPAL_SECRET, logger },
    lookup: async (projectId) =>
      (await projects.call(projectsLookup, { ids: [projectId] })).projects[0]?.repositoryStorage ?? null,
  });
  runtime.onStop('resources', async () => git.close());

  const mergeRequests = createMergeRequestsService({ sql, access, git, repository, projects, notes, logger });
  // A deleted project takes its merge requests with it; a renamed or removed label (kept by
  // notes) is renamed or removed on the project's merge requests.
  const readEvent = createKnownEventReader(logger);
  const handled = new Set(['projects:project.deleted', 'notes:label.updated', 'notes:label.deleted']);
  runtime.consumeEvents({
    services: ['projects', 'notes'],
    // Issues and notes (most of notes' stream) are nothing to merge requests.
    wants: (event) => handled.has(`${event.service}:${event.type}`),
    handle: async (event) => {
      const known = readEvent(event);
      if (known?.key === 'projects:project.deleted') await deleteProjectMergeRequests(sql, known.payload.project_id);
      if (known?.key === 'notes:label.updated' && known.payload.title !== null)
        await renameLabel(sql, known.payload.project_id, known.payload.previous_title, known.payload.title);
      if (known?.key === 'notes:label.deleted')
        await removeLabel(sql, known.payload.project_id, known.payload.previous_title);
    },
  });
  runtime.followChanges();

  await runtime.serveSubgraph<MergeRequestsContext>({
    port: config.MERGEREQUESTS_PORT,
    resolvers: createResolvers({ sql, mergeRequests, git, cursors: runtime.cursors }),
    createContext: (principal) => ({ principal }),
    routers: [createInternalRoutes({ sql, secret: config.PRINCIPAL_SECRET, logger })],
  });
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
