// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import {
  answerClientErrorsAsJson,
  closeServer,
  createLogger,
  exitOnStartupFailure,
  listen,
  onShutdown,
} from '@hub/common';
import { createAbuseLimits, startGatewayRuntime } from '@hub/gateway';
import { createFacadeApp } from './app';
import { createConditionalRequests } from './conditional/conditional-get';
import { RenderedEntities } from './entities/rendered';
import { createEmbeddedGatewayClient } from './embedded-gateway-client';
import { loadEmbeddedGatewayConfig, loadFacadeConfig } from './env';
import { createRemoteGatewayClient } from './gateway-client';
import { createGitHttpProxy } from './git-http';
import { facadeRateLimits, gitRateLimits } from './rate-limits';
import { createDownloadRoutes } from './routes/repository-downloads';
import { createGitShards } from '@hub/protos';
import { createWorkerPools } from './worker-http';

async function main() {
  const config = loadFacadeConfig();
  const logger = createLogger('rest-facade', config.LOG_LEVEL);
  const embedded = loadEmbeddedGatewayConfig();
  const gateway = embedded
    ? createEmbeddedGatewayClient(await startGatewayRuntime(embedded, logger, ['internal']))
    : createRemoteGatewayClient(config.GATEWAY_URL, config.PRINCIPAL_SECRET, logger);
  // Each project's shard comes with the gateway's answer that authorizes the request: no lookup here.
  const git = createGitShards({
    shards: config.GIT_WORKER_SHARDS,
    caller: { caller: 'rest-facade', secret: config.PRINCIPAL_SECRET, logger },
  });
  const workers = createWorkerPools(git);
  const gitHttp = createGitHttpProxy({ gateway, workers, secret: config.PRINCIPAL_SECRET, logger });
  const downloads = createDownloadRoutes({ gateway, git, workers, secret: config.PRINCIPAL_SECRET, logger });
  const limits = createAbuseLimits('facade', config, logger);
  const conditional = createConditionalRequests(config.REDIS_URL);
  const rendered =
    config.RENDERED_CACHE_MIB > 0 ? new RenderedEntities(config.RENDERED_CACHE_MIB * 1024 * 1024) : undefined;
  const app = createFacadeApp({
    gateway,
    logger,
    gitHttp,
    downloads,
    rateLimits: { api: facadeRateLimits(limits), git: gitRateLimits(limits) },
    trustedProxies: config.TRUSTED_PROXIES,
    conditional,
    rendered,
  });
  const server = await listen(app, config.PORT);
  // A large push or clone may take longer than Node's default 5-minute request limit; headers still time out.
  server.requestTimeout = 0;
  answerClientErrorsAsJson(server, (status, reason) => ({ message: `${status} ${reason}` }));
  logger.info(
    { port: config.PORT, gateway: config.GATEWAY_MODE === 'embedded' ? 'embedded' : config.GATEWAY_URL },
    'rest facade listening',
  );
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => gateway.close(),
    async () => git.close(),
    () => workers.close().then(() => {}),
    () => limits.close(),
    () => conditional.close(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger('rest-facade')));
