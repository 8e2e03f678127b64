import { loadConfig } from '@hub/common';

/** What the gateway's runtime reads, wherever it runs (its own process or inside the facade). */
const RUNTIME_VARIABLES = [
  'IDENTITY_URL',
  'PROJECTS_URL',
  'MEMBERSHIP_URL',
  'REPOSITORY_URL',
  'MERGEREQUESTS_URL',
  'NOTES_URL',
  'HOOKS_URL',
  'REDIS_URL',
  'PRINCIPAL_SECRET',
  'PRINCIPAL_CACHE_TTL_MS',
  'GRAPHQL_MAX_DEPTH',
  'GRAPHQL_MAX_ALIASES',
  'GRAPHQL_MAX_TOKENS',
  'GRAPHQL_MAX_COST',
] as const;

export const loadGatewayRuntimeConfig = () => loadConfig(RUNTIME_VARIABLES);

/** The rate limits of a front door (the gateway's `/graphql`, the facade). */
export const ABUSE_LIMIT_VARIABLES = [
  'RATE_LIMIT_WINDOW_S',
  'RATE_LIMIT_PER_USER',
  'RATE_LIMIT_PER_IP',
  'AUTH_FAILURE_WINDOW_S',
  'AUTH_FAILURES_PER_IP',
  'AUTH_FAILURES_PER_LOGIN',
  'AUTH_RETRY_INTERVAL_S',
  'TRUSTED_PROXIES',
  'RATE_LIMIT_ALLOWLIST',
] as const;
export const loadGatewayConfig = () =>
  loadConfig([
    ...RUNTIME_VARIABLES,
    ...ABUSE_LIMIT_VARIABLES,
    'GATEWAY_PORT',
    'SUBSCRIPTIONS_PER_USER',
    'SUBSCRIPTIONS_PER_PROCESS',
    'SUBSCRIPTION_QUEUE_LIMIT',
    'SUBSCRIPTION_READ_INTERVAL_MS',
    'LOG_LEVEL',
    'SHUTDOWN_GRACE_MS',
  ] as const);

export type GatewayRuntimeConfig = ReturnType<typeof loadGatewayRuntimeConfig>;
