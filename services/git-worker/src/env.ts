import { loadConfig } from '@hub/common';

/** The settings the git worker reads; see the configuration table in services/common. */
export const loadGitWorkerConfig = () =>
  loadConfig([
    'GIT_WORKER_GRPC_PORT',
    'GIT_WORKER_HTTP_PORT',
    'REPOS_ROOT',
    'COMPARE_TIMEOUT_MS',
    'IMPORT_ALLOW_LOCAL',
    'DATABASE_URL',
    'DB_POOL_MAX',
    'REDIS_URL',
    'PRINCIPAL_SECRET',
    'EVENTS_STREAM_MAXLEN',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

/** The Postgres schema this service owns (its outbox), and the name its events carry. */
export const SERVICE = 'git_worker';
