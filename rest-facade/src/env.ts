import { loadConfig } from '@hub/common';
import { ABUSE_LIMIT_VARIABLES } from '@hub/gateway';

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
    ...ABUSE_LIMIT_VARIABLES,
  ] as const);
