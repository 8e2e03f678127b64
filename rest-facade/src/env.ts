import { loadConfig } from '@hub/common';

export const loadFacadeConfig = () => loadConfig(['PORT', 'GATEWAY_URL', 'LOG_LEVEL', 'SHUTDOWN_GRACE_MS'] as const);
