// First: tracing instruments http, undici and gRPC as they load (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import '@hub/common/tracing';
import { resolve } from 'node:path';
import { createLogger, createServiceRuntime, exitOnStartupFailure } from '@hub/common';
import { createLoaders, type MembershipContext } from './context';
import { loadMembershipConfig, SERVICE } from './env';
import { createEventHandler } from './events';
import { createGroupsService } from './groups-service';
import { createInternalRoutes } from './internal/routes';
import { createMembershipService } from './membership-service';
import { createResolvers } from './resolvers';

/** Composition root: config → runtime (Postgres, Redis, relay) → clients → services → server → shutdown. */
async function main() {
  const config = loadMembershipConfig();
  const runtime = await createServiceRuntime({ service: SERVICE, config, root: resolve(__dirname, '..') });
  const { sql, logger } = runtime;
  const { identity } = runtime.internalClients('identity');
  const membership = createMembershipService({ sql, identity });
  const groups = createGroupsService({ sql, identity });
  runtime.consumeEvents({ services: ['projects', 'identity'], handle: createEventHandler(sql, groups, logger) });

  await runtime.serveSubgraph<MembershipContext>({
    port: config.MEMBERSHIP_PORT,
    resolvers: createResolvers({ sql, membership, groups, cursors: runtime.cursors }),
    createContext: (principal) => ({ principal, loaders: createLoaders(membership, principal) }),
    routers: [createInternalRoutes({ sql, membership, groups, secret: config.PRINCIPAL_SECRET, logger })],
  });
}

main().catch(exitOnStartupFailure(createLogger(SERVICE)));
