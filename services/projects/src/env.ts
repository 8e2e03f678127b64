import { loadConfig } from '@hub/common';

/** The settings the projects service reads; see the configuration table in services/common. */
export const loadProjectsConfig = () =>
  loadConfig([
    'PROJECTS_PORT',
    'IDENTITY_URL',
    'MEMBERSHIP_URL',
    'NOTES_URL',
    'MERGEREQUESTS_URL',
    'HOOKS_URL',
    'DATABASE_URL',
    'DB_POOL_MAX',
    'REDIS_URL',
    'PRINCIPAL_SECRET',
    'EXTERNAL_URL',
    'GIT_WORKER_NEW_PROJECT_SHARDS',
    'ACCESS_CACHE_TTL_MS',
    'EVENTS_STREAM_MAXLEN',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

export type ProjectsConfig = ReturnType<typeof loadProjectsConfig>;

/** The Postgres schema this service owns, and the name its events carry. */
export const SERVICE = 'projects';
