import { loadConfig } from '@hub/common';

export const loadFacadeConfig = () =>
  loadConfig(['PORT', 'GATEWAY_MODE', 'GATEWAY_URL', 'GIT_WORKER_HTTP_URL', 'GIT_WORKER_GRPC_ADDRESS', 'PRINCIPAL_SECRET', 'LOG_LEVEL', 'SHUTDOWN_GRACE_MS'] as const);

/** The gateway's own settings, read only when the facade embeds it. */
export const loadEmbeddedGatewayConfig = () =>
  loadConfig([
    'IDENTITY_URL',
    'PROJECTS_URL',
    'MEMBERSHIP_URL',
    'REPOSITORY_URL',
    'MERGEREQUESTS_URL',
    'NOTES_URL',
    'HOOKS_URL',
    'REDIS_URL',
    'PRINCIPAL_SECRET',
    'PRINCIPAL_CACHE_TTL_MS',
  ] as const);
