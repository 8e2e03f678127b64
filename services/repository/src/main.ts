// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import { createLogger, createServiceRuntime, exitOnStartupFailure } from '@hub/common';
import { createGitShards } from '@hub/protos';
import { createLoaders, type RepositoryContext } from './context';
import { storageOf } from './db/project-storages';
import { loadRepositoryConfig, SERVICE } from './env';
import { createEventHandler, createEventOrder } from './events';
import { createGit } from './git';
import { createInternalRoutes } from './internal/routes';
import { createResolvers } from './resolvers';
import { createTreeIds } from './tree-ids';

/** Composition root: config → runtime (Postgres, Redis, relay) → clients → server → shutdown. */
async function main() {
  const config = loadRepositoryConfig();
  const runtime = await createServiceRuntime({ service: SERVICE, config, root: resolve(__dirname, '..') });
  const { sql, logger } = runtime;
  const { membership, identity } = runtime.internalClients('membership', 'identity');
  const access = runtime.accessClient(membership);
  // default_branch_protection decides how a first push protects the default branch.
  const settings = runtime.settingsClient(identity);
  const shards = createGitShards({
    shards: config.GIT_WORKER_SHARDS,
    caller: { caller: SERVICE, secret: config.PRINCIPAL_SECRET, logger },
    lookup: (projectId) => storageOf(sql, projectId),
  });
  runtime.onStop('resources', async () => shards.close());
  const treeIds = createTreeIds();
  runtime.followedCache(treeIds.changeHandler(logger));
  const git = createGit(shards, { treeIds });

  runtime.consumeEvents({
    services: ['projects', 'git_worker'],
    handle: createEventHandler({ sql, git, shards, logger, settings }),
    orderKeys: createEventOrder(logger),
  });
  runtime.followChanges();

  await runtime.serveSubgraph<RepositoryContext>({
    port: config.REPOSITORY_PORT,
    resolvers: createResolvers({ sql, git, identity, cursors: runtime.cursors }),
    createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
    routers: [createInternalRoutes({ sql, git, secret: config.PRINCIPAL_SECRET, logger })],
  });
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
