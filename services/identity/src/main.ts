// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import { createLogger, createServiceRuntime, exitOnStartupFailure } from '@hub/common';
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

/** Composition root: config → runtime (Postgres, Redis, relay) → clients → services → server → shutdown. */
async function main() {
  const config = loadIdentityConfig();
  const runtime = await createServiceRuntime({ service: SERVICE, config, root: resolve(__dirname, '..') });
  const { sql, logger } = runtime;
  const sealer = createTokenSealer(config.TOKEN_ENCRYPTION_KEY);
  await sealPlainTokens(sql, sealer.seal);
  const identity = createIdentityService({ sql, logger, oauthTokenTtlSeconds: config.OAUTH_TOKEN_TTL_S, sealer });
  // Membership keeps group members and answers who may see or administer a group.
  const { membership } = runtime.internalClients('membership');
  const groups = createGroupsService({ sql, membership, logger });
  const settings = createApplicationSettings({ sql });
  // Deploy keys are GitLab's admin_project: membership decides, cached answers dropped on its events.
  const access = runtime.accessClient(membership);
  runtime.followChanges();
  const keys = createKeysService({ sql, access });
  runtime.consumeEvents({ services: CONSUMED_SERVICES, handle: createEventHandler({ keys, logger }) });

  await runtime.serveSubgraph<IdentityContext>({
    port: config.IDENTITY_PORT,
    resolvers: createResolvers({
      sql,
      identity,
      groups,
      settings,
      keys,
      externalUrl: config.EXTERNAL_URL,
      cursors: runtime.cursors,
    }),
    createContext: (principal) => ({ principal, loaders: createLoaders(sql) }),
    routers: [
      createPrincipalRouter(identity, config.PRINCIPAL_SECRET),
      createLookupRouter({ sql, secret: config.PRINCIPAL_SECRET, logger, externalUrl: config.EXTERNAL_URL }),
      createSettingsRouter({ settings, secret: config.PRINCIPAL_SECRET, logger }),
    ],
  });
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
