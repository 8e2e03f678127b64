import { loadConfig } from '@hub/common';
import { ABUSE_LIMIT_VARIABLES, loadGatewayRuntimeConfig } from '@hub/gateway';

export const loadFacadeConfig = () =>
  loadConfig([
    'PORT',
    'GATEWAY_MODE',
    'GATEWAY_URL',
    'GIT_WORKER_SHARDS',
    'PRINCIPAL_SECRET',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
    'REDIS_URL',
    'RENDERED_CACHE_MIB',
    ...ABUSE_LIMIT_VARIABLES,
  ] as const);

/**
 * The settings of the gateway the facade runs in its own process (`GATEWAY_MODE=embedded`: the
 * subgraph URLs, Redis, the principal cache), or null when it calls a remote one. A loader of its
 * own, so that what reads the facade's configuration (the manifests' test) sees whom it calls.
 */
export const loadEmbeddedGatewayConfig = () =>
  loadConfig(['GATEWAY_MODE'] as const).GATEWAY_MODE === 'embedded' ? loadGatewayRuntimeConfig() : null;
