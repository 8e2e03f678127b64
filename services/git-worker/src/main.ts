// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  closeServer,
  createLogger,
  createObservedApp,
  createServiceRuntime,
  exitOnStartupFailure,
  listen,
  pingSql,
} from '@hub/common';
import { loadGitWorkerConfig, SERVICE } from './env';
import { createGitLauncher } from './git/launcher';
import { headBranch, launchWith, startGitHere } from './git/run';
import { createDownloadHandlers } from './http/downloads-http';
import { createGitHttpHandler } from './http/git-http';
import { recordPushEvents } from './http/push-events';
import { createReaderPool } from './git/object-reader';
import { createContributorStats } from './diff/contributor-stats';
import { createHistoryLengths } from './commit/history-lengths';
import { createCompareCache } from './diff/compare-cache';
import { installHooks } from './http/hooks';
import { GRPC_CALLERS, type WorkerDeps } from './rpc';
import { bindGrpc, createGrpcServer } from './server';

/** Composition root: config → runtime (Postgres, Redis, relay) → repositories folder → gRPC server → git HTTP → shutdown. */
async function main() {
  const config = loadGitWorkerConfig();
  const runtime = await createServiceRuntime({
    service: SERVICE,
    logName: 'git-worker',
    config,
    root: resolve(__dirname, '..'),
  });
  const { sql, logger } = runtime;
  const root = resolve(config.REPOS_ROOT);
  mkdirSync(root, { recursive: true });

  // The expensive git runs start from a small launcher process rather than from this one (why:
  // launcher.ts; which runs: WorkerDeps.startGit). Its sockets are abstract Unix addresses, which
  // only Linux has; elsewhere spawn() it is.
  const launcher = process.platform === 'linux' ? createGitLauncher() : null;
  const startGit = launcher?.spawn ?? startGitHere;
  const readers = createReaderPool();
  runtime.onStop('resources', async () => readers.close());
  if (launcher) runtime.onStop('resources', async () => launcher.close());
  const deps: WorkerDeps = {
    root,
    logger,
    compareTimeoutMs: config.COMPARE_TIMEOUT_MS,
    importAllowLocal: config.IMPORT_ALLOW_LOCAL,
    startGit,
    readers,
    contributors: createContributorStats({ spawn: launchWith(startGit) }),
    historyLengths: createHistoryLengths({ start: startGit }),
    compares: createCompareCache(),
    callers: { secret: config.PRINCIPAL_SECRET, allowed: GRPC_CALLERS },
    recordPush: async (push) =>
      recordPushEvents({
        sql,
        ...push,
        updates: [push.update],
        defaultBranch: await headBranch(push.repo),
        startGit,
      }),
  };
  const grpc = createGrpcServer(deps);
  await bindGrpc(grpc, config.GIT_WORKER_GRPC_PORT);

  const { app } = createObservedApp({ service: 'git-worker', readiness: { postgres: () => pingSql(sql) }, logger });
  const hooksDir = installHooks(join(root, '.hooks'));
  // Downloads first: the git handler answers 404 to every path that is not git's.
  const downloads = createDownloadHandlers({ ...deps, secret: config.PRINCIPAL_SECRET });
  app.get('/blobs/:projectId', downloads.blob);
  app.get('/archives/:projectId', downloads.archive);
  app.use(createGitHttpHandler({ ...deps, secret: config.PRINCIPAL_SECRET, hooksDir, sql }));
  const http = await listen(app, config.GIT_WORKER_HTTP_PORT);
  runtime.onStop('intake', () => closeServer(http));
  runtime.onStop('intake', () => new Promise<void>((done) => grpc.tryShutdown(() => done())));
  // A large push or clone may take longer than Node's default 5-minute request limit; headers still time out.
  http.requestTimeout = 0;
  logger.info({ grpc: config.GIT_WORKER_GRPC_PORT, http: config.GIT_WORKER_HTTP_PORT, root }, 'git worker listening');
}

main().catch(exitOnStartupFailure(createLogger('git-worker')));
