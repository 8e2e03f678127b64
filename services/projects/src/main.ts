// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import { createLogger, createServiceRuntime, exitOnStartupFailure } from '@hub/common';
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

/** Composition root: config → runtime (Postgres, Redis, relay) → clients → services → server → shutdown. */
async function main() {
  const config = loadProjectsConfig();
  const runtime = await createServiceRuntime({ service: SERVICE, config, root: resolve(__dirname, '..') });
  const { sql, logger } = runtime;
  const { identity, membership } = runtime.internalClients('identity', 'membership');
  const access = runtime.accessClient(membership);
  const nodeLookup = createNodeLookup({
    ownerUrls: {
      identity: config.IDENTITY_URL,
      notes: config.NOTES_URL,
      mergerequests: config.MERGEREQUESTS_URL,
      hooks: config.HOOKS_URL,
    },
    secret: config.PRINCIPAL_SECRET,
  });
  runtime.onStop('resources', () => nodeLookup.close());

  const settings = runtime.settingsClient(identity);
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
    placeRepository: createRepositoryPlacement({ sql, shards: config.GIT_WORKER_NEW_PROJECT_SHARDS }),
    factsPush,
  });
  runtime.consumeEvents({
    services: ['projects', 'membership', 'identity', 'git_worker', 'mergerequests', 'notes'],
    handle: createEventHandler({ sql, projects, externalUrl: config.EXTERNAL_URL, logger }),
  });
  runtime.followChanges();

  await runtime.serveSubgraph<ProjectsContext>({
    port: config.PROJECTS_PORT,
    resolvers: createResolvers({
      sql,
      projects,
      membership,
      externalUrl: config.EXTERNAL_URL,
      cursors: runtime.cursors,
    }),
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
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
