// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import {
  closeServer,
  consumeEvents,
  createAccessClient,
  createCursors,
  createInternalClient,
  createLogger,
  createRedis,
  createSql,
  exitOnStartupFailure,
  followAccessChanges,
  migrate,
  onShutdown,
  serveSubgraph,
  startOutboxRelay,
} from '@hub/common';
import { createLoaders, type IdentityContext } from './context';
import { createGroupsService } from './groups-service';
import { loadIdentityConfig, SERVICE } from './env';
import { CONSUMED_SERVICES, createEventHandler } from './events';
import { createApplicationSettings } from './domain/application-settings';
import { createTokenSealer } from './domain/token-seal';
import { sealPlainTokens } from './db/users';
import { createIdentityService } from './identity-service';
import { createKeysService } from './keys-service';
import { createLookupRouter } from './internal/lookup-routes';
import { createPrincipalRouter } from './internal/principal-route';
import { createSettingsRouter } from './internal/settings-route';
import { createResolvers } from './resolvers';

/** Composition root: config → clients → services → server → health → listen → shutdown. */
async function main() {
  const config = loadIdentityConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  const redis = createRedis(config.REDIS_URL);

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  const sealer = createTokenSealer(config.TOKEN_ENCRYPTION_KEY);
  await sealPlainTokens(sql, sealer.seal);
  const identity = createIdentityService({ sql, logger, oauthTokenTtlSeconds: config.OAUTH_TOKEN_TTL_S, sealer });
  // Membership keeps group members and answers who may see or administer a group.
  const membership = createInternalClient({
    baseUrl: config.MEMBERSHIP_URL,
    secret: config.PRINCIPAL_SECRET,
    caller: SERVICE,
  });
  const groups = createGroupsService({ sql, membership, logger });
  const settings = createApplicationSettings({ sql });
  // Deploy keys are GitLab's admin_project: membership decides, cached answers dropped on its events.
  const access = createAccessClient({ membership, ttlMs: config.ACCESS_CACHE_TTL_MS });
  const accessChanges = followAccessChanges({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    access,
    logger,
  });
  const keys = createKeysService({ sql, access });
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });
  const consumer = consumeEvents({
    redis: createRedis(config.REDIS_URL, { blocking: true }),
    group: SERVICE,
    services: CONSUMED_SERVICES,
    logger,
    handle: createEventHandler({ keys, logger }),
  });

  const server = await serveSubgraph<IdentityContext>({
    service: SERVICE,
    port: config.IDENTITY_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({
      sql,
      identity,
      groups,
      settings,
      keys,
      externalUrl: config.EXTERNAL_URL,
      cursors: createCursors(config.PRINCIPAL_SECRET),
    }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(sql) }),
    routers: [
      createPrincipalRouter(identity, config.PRINCIPAL_SECRET),
      createLookupRouter({ sql, secret: config.PRINCIPAL_SECRET, logger, externalUrl: config.EXTERNAL_URL }),
      createSettingsRouter({ settings, secret: config.PRINCIPAL_SECRET, logger }),
    ],
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => consumer.stop(),
    () => accessChanges.stop(),
    () => relay.stop(),
    () => membership.close(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
