import { loadConfig } from '@hub/common';

/** The settings the merge requests service reads; see the configuration table in services/common. */
export const loadMergeRequestsConfig = () =>
  loadConfig([
    'MERGEREQUESTS_PORT',
    'MEMBERSHIP_URL',
    'PROJECTS_URL',
    'REPOSITORY_URL',
    'NOTES_URL',
    'GIT_WORKER_SHARDS',
    'DATABASE_URL',
    'DB_POOL_MAX',
    'REDIS_URL',
    'PRINCIPAL_SECRET',
    'ACCESS_CACHE_TTL_MS',
    'EVENTS_STREAM_MAXLEN',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

/** The Postgres schema this service owns, and the name its events carry. */
export const SERVICE = 'mergerequests';
