import { loadConfig } from '@hub/common';

/** The settings a hooks process reads; see the configuration table in services/common. */
export const loadHooksConfig = () =>
  loadConfig([
    'HOOKS_ROLE',
    'HOOKS_PORT',
    'HOOKS_WORKER_PORT',
    'HOOKS_ALLOW_LOCAL',
    'HOOK_TIMEOUT_MS',
    'HOOK_MAX_ATTEMPTS',
    'HOOK_RETRY_BASE_MS',
    'HOOK_PAUSE_AFTER_FAILURES',
    'HOOK_PAUSE_BASE_MS',
    'HOOK_WORKER_CONCURRENCY',
    'HOOK_LOG_MAX_AGE_DAYS',
    'HOOK_LOG_MAX_PER_HOOK',
    'IDENTITY_URL',
    'PROJECTS_URL',
    'MEMBERSHIP_URL',
    'DATABASE_URL',
    'DB_POOL_MAX',
    'REDIS_URL',
    'PRINCIPAL_SECRET',
    'ACCESS_CACHE_TTL_MS',
    'EVENTS_STREAM_MAXLEN',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

export type HooksConfig = ReturnType<typeof loadHooksConfig>;

/** The Postgres schema this service owns, and the name its events carry. */
export const SERVICE = 'hooks';
