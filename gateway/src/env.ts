import { loadConfig } from '@hub/common';

export const loadGatewayConfig = () =>
  loadConfig([
    'GATEWAY_PORT',
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
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
