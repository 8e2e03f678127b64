import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { resolve } from 'node:path';
import { ApolloGateway } from '@apollo/gateway';
import { extendSchema, parse } from 'graphql';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import {
  createEventReader,
  createRedis,
  followEvents,
  identityEvents,
  signPrincipal,
  type EventOf,
  type Logger,
} from '@hub/common';
import { Pool } from 'undici';
import type { GatewayContext } from './context';
import { readCredentials } from './credentials';
import type { GatewayRuntimeConfig } from './env';
import { createGatewayErrorFormatter, operationResolution } from './errors';
import { graphqlProtection, limitsOf } from './graphql-limits';
import { PrincipalCache } from './principal-cache';
import { createPrincipalResolver, type PrincipalOutcome } from './principal-resolver';
import { oneSignInPerDocument } from './sign-ins';
import { createSubgraphAgent, SignedSubgraphSource } from './subgraph-source';

/** gateway/subgraphs.json: the subgraphs composed at build time and the variable naming each one's URL. */
interface SubgraphEntry {
  name: string;
  sdl: string;
  urlVariable: string;
}

/**
 * The two contracts of the graph (gateway/scripts/compose.cjs): `public` for internal teams, where
 * what only the facade needs is @inaccessible; `internal`, the whole graph, for the facade.
 */
export type Contract = 'public' | 'internal';

const SUPERGRAPH_FILES: Record<Contract, string> = {
  public: 'supergraph.graphql',
  internal: 'supergraph-internal.graphql',
};

/**
 * The gateway without its HTTP listener: a query planner and server per contract asked for, the
 * credential → principal resolution with its cache (invalidated by identity's events), and the
 * subgraph pool they share. The gateway process serves both contracts over HTTP; the REST facade
 * may run the internal one in its own process (GATEWAY_MODE=embedded) and skip a network hop and a
 * JSON round trip per request.
 */
export async function startGatewayRuntime<C extends Contract>(
  config: GatewayRuntimeConfig,
  logger: Logger,
  contracts: readonly C[],
) {
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
      if (known?.key.startsWith('identity:user.') && 'user_id' in known.payload && known.payload.user_id !== null)
        cache.invalidateUser(known.payload.user_id);
    },
  });

  const subgraphAgent = createSubgraphAgent();
  // The same limits for the gateway process's callers and the facade's documents run in-process.
  const protection = graphqlProtection(limitsOf(config));
  const serve = async (contract: Contract) => {
    const gateway = new ApolloGateway({
      supergraphSdl: readFileSync(resolve(__dirname, '..', 'generated', SUPERGRAPH_FILES[contract]), 'utf8'),
      buildService: ({ name }) => new SignedSubgraphSource(`${subgraphUrls[name]}/graphql`, subgraphAgent),
    });
    const server = new ApolloServer<GatewayContext>({
      gateway: contract === 'public' ? withSubscriptionTypes(gateway) : gateway,
      formatError: createGatewayErrorFormatter(logger),
      includeStacktraceInErrorResponses: false,
      validationRules: [...protection.validationRules, oneSignInPerDocument],
      parseOptions: protection.parseOptions,
      // Nothing here caches by cache hints; the plugin would only add work to every request.
      // No landing page: Apollo's loads its scripts from a CDN; browsers get the gateway's own
      // explorer (explorer.ts) instead.
      plugins: [
        ApolloServerPluginCacheControlDisabled(),
        ApolloServerPluginLandingPageDisabled(),
        operationResolution,
        ...protection.plugins,
        ...(contract === 'public' ? [protection.costReport] : []),
      ],
      // Apollo turns introspection off when NODE_ENV is production; internal teams explore the
      // graph (signed in: graphql-limits refuses it to anonymous callers).
      introspection: true,
      // No automatic persisted queries: a document sent by hash alone has no text for the sign-in
      // limits (sign-ins.ts) to read, and nothing of ours sends one.
      persistedQueries: false,
    });
    await server.start();
    return server;
  };
  const servers = {} as Record<C, ApolloServer<GatewayContext>>;
  for (const contract of contracts) servers[contract] = await serve(contract);

  return {
    servers,
    subgraphUrls,
    /** The request's principal from its credential headers, and its signature for the subgraphs. */
    contextFor: async (headers: IncomingHttpHeaders): Promise<GatewayContext> => {
      const principal = await resolvePrincipal(readCredentials(headers));
      return { principal, signedPrincipal: signPrincipal(principal, config.PRINCIPAL_SECRET) };
    },
    /** Readiness: every request needs identity to authenticate; other subgraphs only fail their own fields. */
    identityReady: async () => {
      const response = await identity.request({ path: '/healthz', method: 'GET' });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`identity answered ${response.statusCode}`);
    },
    stop: async () => {
      for (const server of Object.values<ApolloServer<GatewayContext>>(servers)) await server.stop();
      await events.stop();
      await identity.close();
      await subgraphAgent.close();
    },
  };
}

/**
 * The gateway as Apollo Server sees it, its API schema extended with the Subscription type the
 * gateway serves itself over WebSocket (live/), so that introspection and the explorer's docs show
 * it. Plans and execution stay the gateway's; a subscription sent over HTTP is refused before
 * either (errors.ts).
 */
function withSubscriptionTypes(gateway: ApolloGateway): Pick<ApolloGateway, 'load' | 'stop' | 'onSchemaLoadOrUpdate'> {
  const subscriptions = parse(readFileSync(resolve(__dirname, '..', 'generated', 'subscriptions.graphql'), 'utf8'));
  return {
    load: (options) => gateway.load(options),
    stop: () => gateway.stop(),
    // Apollo Server reads the schema it validates and introspects from here alone.
    onSchemaLoadOrUpdate: (callback) =>
      gateway.onSchemaLoadOrUpdate((schema) =>
        callback({ ...schema, apiSchema: extendSchema(schema.apiSchema, subscriptions) }),
      ),
  };
}

export type GatewayRuntime<C extends Contract = Contract> = Awaited<ReturnType<typeof startGatewayRuntime<C>>>;
