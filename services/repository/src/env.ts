import { loadConfig } from '@hub/common';

/** The settings the repository service reads; see the configuration table in services/common. */
export const loadRepositoryConfig = () =>
  loadConfig([
    'REPOSITORY_PORT',
    'MEMBERSHIP_URL',
    'IDENTITY_URL',
    'GIT_WORKER_SHARDS',
    'DATABASE_URL',
    'DB_POOL_MAX',
    'REDIS_URL',
    'EVENTS_STREAM_MAXLEN',
    'PRINCIPAL_SECRET',
    'ACCESS_CACHE_TTL_MS',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

/** The Postgres schema this service owns. */
export const SERVICE = 'repository';
