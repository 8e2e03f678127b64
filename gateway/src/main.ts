// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { expressMiddleware } from '@as-integrations/express5';
import {
  ErrorCode,
  INTERNAL_BODY_LIMIT,
  INTERNAL_GRAPHQL_PATH,
  INTERNAL_REFUSED_HEADER,
  LIMITED_HEADER,
  verifyLimited,
  answerClientErrorsAsJson,
  closeServer,
  createLogger,
  createObservedApp,
  exitOnStartupFailure,
  listen,
  onShutdown,
  trustProxySetting,
  CREDENTIALS_REFUSED,
  DomainError,
} from '@hub/common';
import express from 'express';
import { loadGatewayConfig } from './env';
import { startGatewayRuntime } from './gateway-runtime';
import { bodyErrorHandler, createGatewayErrorFormatter } from './errors';
import { graphqlProtection, limitsOf } from './graphql-limits';
import { createSubscriptions } from './live';
import { createAbuseLimits, credentialKey, failureBudgetWaitNow, rateLimitStanding } from './abuse-limits';
import type { GatewayContext } from './context';
import { signInOf } from './sign-ins';
import { readCredentials } from './credentials';
import { explorerRouter } from './explorer';

async function main() {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const runtime = await startGatewayRuntime(config, logger, ['public', 'internal']);

  const subscriptions = createSubscriptions({
    runtime,
    config,
    protection: graphqlProtection(limitsOf(config)),
    formatError: createGatewayErrorFormatter(logger),
    logger,
  });
  const { app } = createObservedApp({
    service: 'gateway',
    readiness: { identity: runtime.identityReady, eventStreams: subscriptions.ready },
    logger,
  });
  app.set('trust proxy', trustProxySetting(config.TRUSTED_PROXIES));
  const limits = createAbuseLimits('gateway', config, logger);
  const limit = limits.middleware({
    identify: (req) => {
      const signIn = signInOf(req.body);
      if (signIn) return { signIn };
      const { privateToken, bearer, basic } = readCredentials(req.headers);
      return { credential: credentialKey(privateToken, basic && `${basic.login}\0${basic.secret}`, bearer) };
    },
    refuse: (res) => {
      res
        .status(429)
        .json({ errors: [{ message: '429 Too Many Requests', extensions: { code: ErrorCode.TOO_MANY_REQUESTS } }] });
    },
    // A refused sign-in is a GraphQL error in a 200: the context says so.
    failed: (res) =>
      res.statusCode === 401 || (res.locals.authentication as GatewayContext['authentication'])?.failed === true,
    refusedCredentials: (res) => res.statusCode === 401 || res.locals[CREDENTIALS_REFUSED] === true,
  });
  const context = async ({ req, res }: { req: express.Request; res: express.Response }) => {
    const overBudgetFor = () => failureBudgetWaitNow(res);
    try {
      return {
        ...(await runtime.contextFor(req.headers)),
        authentication: (res.locals.authentication = { failed: false, overBudgetFor }),
        rateLimit: () => rateLimitStanding(res),
      };
    } catch (error) {
      if (!(error instanceof DomainError) || error.extensions[CREDENTIALS_REFUSED] !== true) throw error;
      res.locals[CREDENTIALS_REFUSED] = true;
      // Past the address's failure budget a refused token is stopped with 429, not told 401.
      const wait = await overBudgetFor();
      if (wait === 0) throw error;
      throw new DomainError(ErrorCode.TOO_MANY_REQUESTS, '429 Too Many Requests', {
        http: { status: 429, headers: new Map([['retry-after', String(wait)]]) },
      });
    }
  };
  // The public contract: what internal teams build on. Browsers asking for HTML get the explorer.
  app.use(
    '/graphql',
    express.json({ limit: INTERNAL_BODY_LIMIT }),
    limit,
    explorerRouter(),
    expressMiddleware(runtime.servers.public, { context }),
  );
  // The internal contract, for the facade alone: it proves itself with the note that it has
  // limited its client (signed with the shared secret), so its clients are not counted here again
  // (they would all share the facade's address).
  app.use(
    INTERNAL_GRAPHQL_PATH,
    (req, res, next) => {
      if (verifyLimited(req.header(LIMITED_HEADER), config.PRINCIPAL_SECRET) !== null) return next();
      res.setHeader(INTERNAL_REFUSED_HEADER, '1');
      res.status(403).json({ errors: [{ message: '403 Forbidden', extensions: { code: ErrorCode.FORBIDDEN } }] });
    },
    express.json({ limit: INTERNAL_BODY_LIMIT }),
    expressMiddleware(runtime.servers.internal, { context }),
  );

  app.use(bodyErrorHandler(logger));
  const http = await listen(app, config.GATEWAY_PORT);
  answerClientErrorsAsJson(http, (status, reason) => ({
    errors: [{ message: `${status} ${reason}`, extensions: { code: ErrorCode.BAD_REQUEST } }],
  }));
  // Subscriptions share /graphql: a WebSocket upgrade there speaks graphql-transport-ws.
  subscriptions.serve(http, '/graphql', limits.credentialRefused);
  logger.info({ port: config.GATEWAY_PORT, subgraphs: runtime.subgraphUrls }, 'gateway listening');

  // Sockets close first (1001: clients reconnect elsewhere and resume from their cursors).
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => subscriptions.stop(),
    () => closeServer(http),
    () => runtime.stop(),
    () => limits.close(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger('gateway')));
