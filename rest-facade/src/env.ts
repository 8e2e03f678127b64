import { loadConfig } from '@hub/common';

export const loadFacadeConfig = () =>
  loadConfig(['PORT', 'GATEWAY_MODE', 'GATEWAY_URL', 'GIT_WORKER_HTTP_URL', 'GIT_WORKER_GRPC_ADDRESS', 'PRINCIPAL_SECRET', 'LOG_LEVEL', 'SHUTDOWN_GRACE_MS'] as const);

