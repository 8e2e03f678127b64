import { resolve } from 'node:path';
import {
  closeServer,
  createLogger,
  createRedis,
  createSql,
  exitOnStartupFailure,
  migrate,
  onShutdown,
  serveSubgraph,
  startOutboxRelay,
} from '@hub/common';
import { createLoaders, type IdentityContext } from './context';
import { loadIdentityConfig, SERVICE } from './env';
import { createIdentityService } from './identity-service';
import { createLookupRouter } from './internal/lookup-routes';
import { createPrincipalRouter } from './internal/principal-route';
import { createResolvers } from './resolvers';

/** Composition root: config → clients → services → server → health → listen → shutdown. */
async function main() {
  const config = loadIdentityConfig();
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: config.DB_POOL_MAX });
  const redis = createRedis(config.REDIS_URL);

  await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });

  const identity = createIdentityService({ sql, logger, oauthTokenTtlSeconds: config.OAUTH_TOKEN_TTL_S });
  const relay = startOutboxRelay({ sql, redis, service: SERVICE, logger, maxLen: config.EVENTS_STREAM_MAXLEN });

  const server = await serveSubgraph<IdentityContext>({
    service: SERVICE,
    port: config.IDENTITY_PORT,
    sql,
    sdlPath: resolve(__dirname, '..', 'src', 'schema.graphql'),
    resolvers: createResolvers({ sql, identity, externalUrl: config.EXTERNAL_URL }),
    principalSecret: config.PRINCIPAL_SECRET,
    logger,
    createContext: (principal) => ({ principal, loaders: createLoaders(sql) }),
    routers: [
      createPrincipalRouter(identity, config.PRINCIPAL_SECRET),
      createLookupRouter({ sql, secret: config.PRINCIPAL_SECRET, logger, externalUrl: config.EXTERNAL_URL }),
    ],
  });

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => closeServer(server),
    () => relay.stop(),
    () => sql.end({ timeout: 5 }),
    async () => redis.disconnect(),
  ]);
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
