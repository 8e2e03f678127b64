import { loadConfig } from '@hub/common';

/** The settings the membership service reads; see the configuration table in services/common. */
export const loadMembershipConfig = () =>
  loadConfig([
    'MEMBERSHIP_PORT',
    'IDENTITY_URL',
    'DATABASE_URL',
    'DB_POOL_MAX',
    'REDIS_URL',
    'PRINCIPAL_SECRET',
    'EVENTS_STREAM_MAXLEN',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

export type MembershipConfig = ReturnType<typeof loadMembershipConfig>;

/** The Postgres schema this service owns, and the name its events carry. */
export const SERVICE = 'membership';
