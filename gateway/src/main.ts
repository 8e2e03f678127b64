import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import {
  INTERNAL_BODY_LIMIT,
  createEventReader,
  identityEvents,
  type EventOf,
  closeServer,
  createLogger,
  createObservedApp,
  createRedis,
  exitOnStartupFailure,
  followEvents,
  listen,
  onShutdown,
  signPrincipal,
} from '@hub/common';
import express from 'express';
import { Pool } from 'undici';
import type { GatewayContext } from './context';
import { readCredentials } from './credentials';
import { loadGatewayConfig } from './env';
import { createGatewayErrorFormatter } from './errors';
import { PrincipalCache } from './principal-cache';
import { createPrincipalResolver, type PrincipalOutcome } from './principal-resolver';
import { SignedSubgraphSource, subgraphAgent } from './subgraph-source';

/** gateway/subgraphs.json: the subgraphs composed at build time and the variable naming each one's URL. */
interface SubgraphEntry {
  name: string;
  sdl: string;
  urlVariable: string;
}

async function main() {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);

  const subgraphs = JSON.parse(readFileSync(resolve(__dirname, '..', 'subgraphs.json'), 'utf8')) as SubgraphEntry[];
  const subgraphUrls = Object.fromEntries(
    subgraphs.map(({ name, urlVariable }) => [name, config[urlVariable as keyof typeof config] as string]),
  );
  const identity = new Pool(subgraphUrls.identity, { connections: 32, keepAliveTimeout: 30_000 });
  const cache = new PrincipalCache<PrincipalOutcome>(config.PRINCIPAL_CACHE_TTL_MS);
  const resolvePrincipal = createPrincipalResolver({
    identity,
    secret: config.PRINCIPAL_SECRET,
    cache,
    onUnavailable: (error) => logger.warn({ err: error }, 'identity unavailable for a credential lookup'),
  });
  // Cached principals die with a token reset, block, admin change or deletion, not with the TTL.
  const readUserEvent = createEventReader<EventOf<typeof identityEvents>>([identityEvents], logger);
  const events = followEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    services: ['identity'],
    logger,
    onEvent: (event) => {
      const known = readUserEvent(event);
      if (known?.key.startsWith('identity:user.') && 'user_id' in known.payload && known.payload.user_id !== null) cache.invalidateUser(known.payload.user_id);
    },
  });

  const gateway = new ApolloGateway({
    supergraphSdl: readFileSync(resolve(__dirname, '..', 'generated', 'supergraph.graphql'), 'utf8'),
    buildService: ({ name }) => new SignedSubgraphSource(`${subgraphUrls[name]}/graphql`),
  });
  const server = new ApolloServer<GatewayContext>({
    gateway,
    formatError: createGatewayErrorFormatter(logger),
    includeStacktraceInErrorResponses: false,
    // Nothing here caches by cache hints; the plugin would only add work to every request.
    plugins: [ApolloServerPluginCacheControlDisabled()],
    // Apollo turns introspection off when NODE_ENV is production; internal teams explore the graph.
    introspection: true,
  });
  await server.start();

  const { app } = createObservedApp({
    service: 'gateway',
    // Every request needs identity to authenticate; other subgraphs only fail their own fields.
    readiness: {
      identity: async () => {
        const response = await identity.request({ path: '/healthz', method: 'GET' });
        await response.body.dump();
        if (response.statusCode !== 200) throw new Error(`identity answered ${response.statusCode}`);
      },
    },
  });
  app.use(
    '/graphql',
    express.json({ limit: INTERNAL_BODY_LIMIT }),
    expressMiddleware(server, {
      context: async ({ req }) => {
        const principal = await resolvePrincipal(readCredentials(req.headers));
        return { principal, signedPrincipal: signPrincipal(principal, config.PRINCIPAL_SECRET) };
      },
    }),
  );

  const http = await listen(app, config.GATEWAY_PORT);
  logger.info({ port: config.GATEWAY_PORT, subgraphs: subgraphUrls }, 'gateway listening');

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(http),
    () => server.stop(),
    () => events.stop(),
    () => identity.close(),
    () => subgraphAgent.close(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger('gateway')));
