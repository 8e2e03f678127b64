// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  closeServer,
  consumeEvents,
  createCursors,
  createInternalClient,
  createLogger,
  createRedis,
  createSql,
  exitOnStartupFailure,
  migrate,
  onShutdown,
  serveSubgraph,
  startOutboxRelay,
} from '@hub/common';
import { createLoaders, type MembershipContext } from './context';
import { loadMembershipConfig, SERVICE } from './env';
import { createEventHandler } from './events';
import { createGroupsService } from './groups-service';
import { createInternalRoutes } from './internal/routes';
import { createMembershipService } from './membership-service';
import { createResolvers } from './resolvers';

/** Composition root: config → clients → services → server → health → listen → shutdown. */
async function main() {
  const config = loadMembershipConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  const redis = createRedis(config.REDIS_URL);
  const identity = createInternalClient({
    baseUrl: config.IDENTITY_URL,
    secret: config.PRINCIPAL_SECRET,
    caller: SERVICE,
  });

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  const membership = createMembershipService({ sql, identity });
  const groups = createGroupsService({ sql, identity });
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: ['projects', 'identity'],
    logger,
    handle: createEventHandler(sql, groups, logger),
  });

  const server = await serveSubgraph<MembershipContext>({
    service: SERVICE,
    port: config.MEMBERSHIP_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({ sql, membership, groups, cursors: createCursors(config.PRINCIPAL_SECRET) }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(membership, principal) }),
    routers: [createInternalRoutes({ sql, membership, groups, secret: config.PRINCIPAL_SECRET, logger })],
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => consumer.stop(),
    () => relay.stop(),
    () => identity.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
