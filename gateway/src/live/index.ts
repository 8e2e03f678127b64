import type { Server } from 'node:http';
import { createKnownEventReader, createRedis, pingRedis, type Logger, type NetworkList } from '@hub/common';
import { buildSchema, type GraphQLFormattedError, type ParseOptions, type ValidationRule } from 'graphql';
import { readApiSchemaSdl } from '../api-schema';
import type { GatewayRuntime } from '../gateway-runtime';
import { createMessageReader, type ExecuteLive } from './live-reads';
import { createSubscriptionLimits, serveSubscriptions } from './live-server';
import { createLiveStreams } from './live-streams';
import { ownerLookupsOf } from './message-reads';
import { buildLiveSchema } from './live-subscriptions';
import { routesOf, TOPIC_SERVICES } from './topics';

/**
 * GraphQL subscriptions for the gateway's composition root: the streams read once per process and
 * the public schema made executable for them, then (`serve`) the WebSocket endpoint on the HTTP
 * server with its limits. Subscribers' documents are validated against the public contract; the
 * reads of their messages' objects run on the internal one, a superset that adds the owners'
 * one-hop lookups by global id (message-reads.ts): the same selections answer the same there.
 * `ready` answers once the streams can be read: a subscription's catch-up reads fail fast while
 * Redis is away rather than hang, so the process is not ready before.
 */
export function createSubscriptions(options: {
  runtime: GatewayRuntime<'public' | 'internal'>;
  config: {
    REDIS_URL: string;
    SUBSCRIPTIONS_PER_USER: number;
    SUBSCRIPTIONS_PER_PROCESS: number;
    SUBSCRIPTION_QUEUE_LIMIT: number;
    SUBSCRIPTION_READ_INTERVAL_MS: number;
    TRUSTED_PROXIES: NetworkList;
  };
  protection: { validationRules: readonly ValidationRule[]; parseOptions: ParseOptions };
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  logger: Logger;
}) {
  const { runtime, config, logger } = options;
  const redis = createRedis(config.REDIS_URL);
  redis.on('error', () => {}); // the streams' reads report Redis being away
  const streams = createLiveStreams({
    blocking: createRedis(config.REDIS_URL, { blocking: true }),
    redis,
    services: TOPIC_SERVICES,
    read: createKnownEventReader(logger),
    routes: routesOf,
    logger,
  });
  const execute: ExecuteLive = async (query, variables, contextValue) => {
    const response = await runtime.servers.internal.executeOperation({ query, variables }, { contextValue });
    if (response.body.kind !== 'single') throw new Error('a subscription message read answered incrementally');
    return response.body.singleResult;
  };
  const schema = buildLiveSchema(readApiSchemaSdl('public'), {
    streams,
    queueLimit: config.SUBSCRIPTION_QUEUE_LIMIT,
    execute,
    lookups: ownerLookupsOf(buildSchema(readApiSchemaSdl('internal'))),
    reader: createMessageReader(execute, logger, config.SUBSCRIPTION_READ_INTERVAL_MS),
    logger,
  });
  let server: ReturnType<typeof serveSubscriptions> | null = null;
  return {
    ready: () => pingRedis(redis),
    serve(http: Server, path: string, credentialRefused: (ip: string) => Promise<number>) {
      server = serveSubscriptions({
        http,
        path,
        schema,
        contextFor: runtime.contextFor,
        limits: createSubscriptionLimits(config.SUBSCRIPTIONS_PER_USER, config.SUBSCRIPTIONS_PER_PROCESS),
        credentialRefused,
        trustedProxies: config.TRUSTED_PROXIES,
        validationRules: options.protection.validationRules,
        parseOptions: options.protection.parseOptions,
        formatError: options.formatError,
        logger,
      });
    },
    stop: async () => {
      await server?.close();
      await streams.stop();
      redis.disconnect();
    },
  };
}
