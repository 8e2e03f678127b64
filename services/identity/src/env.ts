import { loadConfig } from '@hub/common';

/** The settings the identity service reads; see the configuration table in services/common. */
export const loadIdentityConfig = () =>
  loadConfig([
    'IDENTITY_PORT',
    'DATABASE_URL',
    'DB_POOL_MAX',
    'REDIS_URL',
    'PRINCIPAL_SECRET',
    'TOKEN_ENCRYPTION_KEY',
    'MEMBERSHIP_URL',
    'ACCESS_CACHE_TTL_MS',
    'EXTERNAL_URL',
    'OAUTH_TOKEN_TTL_S',
    'EVENTS_STREAM_MAXLEN',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

export type IdentityConfig = ReturnType<typeof loadIdentityConfig>;

/** The Postgres schema this service owns, and the name its events carry. */
export const SERVICE = 'identity';
