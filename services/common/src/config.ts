/**
 * The one configuration table. Every process reads its settings from the environment through
 * this table, asking only for the variables it uses; the table in docs/configuration.md is
 * rendered from it (`node infra/local/dist/cli.js config-table`) and a test keeps the two equal.
 */

import { parseNetworkList } from './client-address';

type Env = Record<string, string | undefined>;

interface VariableSpec<T> {
  description: string;
  /** A literal default, or one derived from other variables (read through `get`). */
  fallback?: string | ((get: (name: string) => string | undefined) => string | undefined);
  /** How a derived default reads in the docs. */
  fallbackText?: string;
  parse: (raw: string, name: string) => T;
  /** Printed as `(generated)` or `(none)` in docs; never logged. */
  secret?: boolean;
}

const text = (raw: string) => raw;
const integer = (raw: string, name: string) => {
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
};
const port = (raw: string, name: string) => {
  const value = integer(raw, name);
  if (value < 0 || value > 65535) throw new Error(`${name} must be a TCP port, got "${raw}"`);
  return value;
};
const url = (raw: string, name: string) => {
  try {
    return new URL(raw).toString().replace(/\/$/, '');
  } catch {
    throw new Error(`${name} must be a URL, got "${raw}"`);
  }
};
const level = (raw: string, name: string) => {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(raw)) throw new Error(`${name} must be one of ${levels.join(', ')}`);
  return raw;
};

const boolean = (raw: string, name: string) => {
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false`);
  return raw === 'true';
};
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: string, name: string): T => {
    if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(', ')}`);
    return raw as T;
  };

/** A git worker shard: where its gRPC services and its git HTTP side listen. */
export interface GitShard {
  grpcAddress: string;
  httpUrl: string;
}
/** `name=host:port;http://host:port,...` in order; the first holds the projects recorded before shards. */
const gitShards = (raw: string, name: string): Record<string, GitShard> => {
  const shards: Record<string, GitShard> = {};
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9][a-z0-9_-]*)=([^;=\s]+:\d+);(\S+)$/.exec(entry);
    if (!match || Object.hasOwn(shards, match[1]))
      throw new Error(`${name} must list distinct name=host:grpcPort;httpUrl entries, got "${entry}"`);
    shards[match[1]] = { grpcAddress: match[2], httpUrl: url(match[3], name) };
  }
  if (Object.keys(shards).length === 0) throw new Error(`${name} names no shard`);
  return shards;
};

const spec = <T>(s: VariableSpec<T>) => s;
const local = (portVar: string) => (get: (name: string) => string | undefined) => `http://127.0.0.1:${get(portVar)}`;

export const CONFIG_TABLE = {
  PORT: spec({
    description: 'Port of the REST facade (`/api/v3`, `/oauth/token`, git over HTTP).',
    fallback: '8080',
    parse: port,
  }),
  GATEWAY_PORT: spec({ description: 'Port of the GraphQL gateway (`/graphql`).', fallback: '4000', parse: port }),
  IDENTITY_PORT: spec({ description: 'Port of the identity subgraph.', fallback: '4001', parse: port }),
  PROJECTS_PORT: spec({ description: 'Port of the projects subgraph.', fallback: '4002', parse: port }),
  NOTES_PORT: spec({ description: 'Port of the notes subgraph.', fallback: '4006', parse: port }),
  MERGEREQUESTS_PORT: spec({ description: 'Port of the merge requests subgraph.', fallback: '4005', parse: port }),
  REPOSITORY_PORT: spec({ description: 'Port of the repository subgraph.', fallback: '4004', parse: port }),
  GIT_WORKER_HTTP_PORT: spec({
    description:
      "Port of the git worker's HTTP side (git smart HTTP, blob and archive downloads for the facade, health, metrics).",
    fallback: '4011',
    parse: port,
  }),
  GIT_WORKER_GRPC_PORT: spec({ description: "Port of the git worker's gRPC services.", fallback: '4010', parse: port }),
  MEMBERSHIP_PORT: spec({
    description: 'Port of the membership subgraph and its authorization API.',
    fallback: '4003',
    parse: port,
  }),
  HOOKS_PORT: spec({ description: 'Port of the hooks subgraph.', fallback: '4007', parse: port }),
  HOOKS_WORKER_PORT: spec({
    description: 'Port of a hook worker process (health, readiness, metrics).',
    fallback: '4008',
    parse: port,
  }),
  GATEWAY_MODE: spec({
    description:
      'How the facade runs its GraphQL queries: `remote` sends them to the gateway at `GATEWAY_URL`; `embedded` runs the gateway inside the facade process (one hop and one JSON round trip less per request; the facade then needs the subgraph URLs, `REDIS_URL` and `PRINCIPAL_CACHE_TTL_MS` as the gateway does).',
    fallback: 'remote',
    parse: oneOf(['remote', 'embedded'] as const),
  }),
  GATEWAY_URL: spec({
    description: 'Where the facade reaches the gateway (`GATEWAY_MODE=remote`).',
    fallback: local('GATEWAY_PORT'),
    fallbackText: 'http://127.0.0.1:$GATEWAY_PORT',
    parse: url,
  }),
  IDENTITY_URL: spec({
    description: 'Where the gateway and the services reach identity (subgraph and internal lookups).',
    fallback: local('IDENTITY_PORT'),
    fallbackText: 'http://127.0.0.1:$IDENTITY_PORT',
    parse: url,
  }),
  PROJECTS_URL: spec({
    description: 'Where the gateway reaches the projects subgraph, and hooks and merge requests its internal lookups.',
    fallback: local('PROJECTS_PORT'),
    fallbackText: 'http://127.0.0.1:$PROJECTS_PORT',
    parse: url,
  }),
  MEMBERSHIP_URL: spec({
    description:
      'Where the gateway and the services reach membership (subgraph and authorization API; identity for groups and deploy keys).',
    fallback: local('MEMBERSHIP_PORT'),
    fallbackText: 'http://127.0.0.1:$MEMBERSHIP_PORT',
    parse: url,
  }),
  REPOSITORY_URL: spec({
    description: 'Where the gateway, the merge requests service and the notes service reach the repository service.',
    fallback: local('REPOSITORY_PORT'),
    fallbackText: 'http://127.0.0.1:$REPOSITORY_PORT',
    parse: url,
  }),
  MERGEREQUESTS_URL: spec({
    description: 'Where the gateway and the notes service reach merge requests.',
    fallback: local('MERGEREQUESTS_PORT'),
    fallbackText: 'http://127.0.0.1:$MERGEREQUESTS_PORT',
    parse: url,
  }),
  NOTES_URL: spec({
    description: 'Where the gateway reaches the notes subgraph, and merge requests its labels and milestones.',
    fallback: local('NOTES_PORT'),
    fallbackText: 'http://127.0.0.1:$NOTES_PORT',
    parse: url,
  }),
  HOOKS_URL: spec({
    description:
      'Where the gateway reaches the hooks subgraph, and projects asks it whether a hook may be seen (node(id:)).',
    fallback: local('HOOKS_PORT'),
    fallbackText: 'http://127.0.0.1:$HOOKS_PORT',
    parse: url,
  }),
  GIT_WORKER_GRPC_ADDRESS: spec({
    description: "host:port of the git worker's gRPC services, for the repository service and the facade.",
    fallback: (get) => `127.0.0.1:${get('GIT_WORKER_GRPC_PORT')}`,
    fallbackText: '127.0.0.1:$GIT_WORKER_GRPC_PORT',
    parse: text,
  }),
  GIT_WORKER_HTTP_URL: spec({
    description: 'Where the facade proxies git clone and push to, and reads blob and archive downloads from.',
    fallback: local('GIT_WORKER_HTTP_PORT'),
    fallbackText: 'http://127.0.0.1:$GIT_WORKER_HTTP_PORT',
    parse: url,
  }),
  GIT_WORKER_SHARDS: spec({
    description:
      "The git worker shards (as Gitaly storages), `name=host:grpcPort;httpUrl` separated by commas, e.g. `default=git-worker-0.git-worker:4010;http://git-worker-0.git-worker:4011,second=…`. Each project's repository lives on one shard recorded with the project (`repository_storage`); every caller routes to it. Unset: one shard, `default`, at `GIT_WORKER_GRPC_ADDRESS` and `GIT_WORKER_HTTP_URL`. A shard's name is kept for good once projects live on it.",
    fallback: (get) => `default=${get('GIT_WORKER_GRPC_ADDRESS')};${get('GIT_WORKER_HTTP_URL')}`,
    fallbackText: 'default=$GIT_WORKER_GRPC_ADDRESS;$GIT_WORKER_HTTP_URL',
    parse: gitShards,
  }),
  GIT_WORKER_NEW_PROJECT_SHARDS: spec({
    description:
      "The shards new projects go to, by name, separated by commas: of them, the one holding the fewest projects (forks too: a fork on its source's shard shares its objects, one on another shard is a copy). One name sends every new project there; leave a full shard out. Unset: every shard of `GIT_WORKER_SHARDS`. Read by projects, which never calls the workers.",
    fallback: (get) => Object.keys(gitShards(get('GIT_WORKER_SHARDS') ?? '', 'GIT_WORKER_SHARDS')).join(','),
    fallbackText: 'the names in $GIT_WORKER_SHARDS',
    parse: (raw: string, name: string) => {
      const names = raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      if (names.length === 0 || names.some((n) => !/^[a-z0-9][a-z0-9_-]*$/.test(n)))
        throw new Error(`${name} must list shard names, got "${raw}"`);
      return [...new Set(names)];
    },
  }),
  REPOS_ROOT: spec({
    description: 'Folder of the bare repositories (`<project id>.git`), owned by the git worker.',
    fallback: (get) => `${get('DATA_DIR') ?? '.data'}/repositories`,
    fallbackText: '$DATA_DIR/repositories',
    parse: text,
  }),
  COMPARE_TIMEOUT_MS: spec({
    description: 'How long a compare may compute its diff before it answers with compare_timeout.',
    fallback: '5000',
    parse: integer,
  }),
  IMPORT_ALLOW_LOCAL: spec({
    description: 'Whether `import_url` may point at loopback or private addresses (GitLab refuses them by default).',
    fallback: 'false',
    parse: boolean,
  }),
  HOOKS_ROLE: spec({
    description: 'What a hooks process runs: `subgraph` (the API), `worker` (event fan-out and deliveries) or `all`.',
    fallback: 'all',
    parse: oneOf(['subgraph', 'worker', 'all'] as const),
  }),
  HOOKS_ALLOW_LOCAL: spec({
    description:
      'Whether hook URLs may point at loopback, private or link-local addresses (off in production; `npm start` turns it on).',
    fallback: 'false',
    parse: boolean,
  }),
  HOOK_TIMEOUT_MS: spec({
    description: 'How long one hook delivery attempt may take, connect to last byte.',
    fallback: '10000',
    parse: integer,
  }),
  HOOK_MAX_ATTEMPTS: spec({
    description: 'Attempts per delivery (network errors, 5xx and 429 are retried) before it counts as failed.',
    fallback: '5',
    parse: integer,
  }),
  HOOK_RETRY_BASE_MS: spec({
    description:
      'First retry delay of a delivery; each next one doubles, with jitter. A `Retry-After` answer overrides it.',
    fallback: '1000',
    parse: integer,
  }),
  HOOK_PAUSE_AFTER_FAILURES: spec({
    description: 'Failed attempts in a row after which a hook is paused (its deliveries wait, none are dropped).',
    fallback: '5',
    parse: integer,
  }),
  HOOK_PAUSE_BASE_MS: spec({
    description:
      'First pause of a failing hook; each pause in a row doubles it, up to a day. The hook resumes by itself.',
    fallback: '60000',
    parse: integer,
  }),
  HOOK_WORKER_CONCURRENCY: spec({
    description: 'Deliveries one hook worker process sends at once.',
    fallback: '50',
    parse: integer,
  }),
  HOOK_LOG_MAX_AGE_DAYS: spec({
    description: 'Days a hook delivery stays in the delivery log.',
    fallback: '7',
    parse: integer,
  }),
  HOOK_LOG_MAX_PER_HOOK: spec({
    description: 'Most recent deliveries kept in the log per hook.',
    fallback: '500',
    parse: integer,
  }),
  EXTERNAL_URL: spec({
    description: 'Base URL users see; web and clone URLs are built from it.',
    fallback: (get) => `http://localhost:${get('PORT')}`,
    fallbackText: 'http://localhost:$PORT',
    parse: url,
  }),
  DATABASE_URL: spec({
    description: 'Postgres connection string. `npm start` starts a local server under `DATA_DIR` when unset.',
    parse: text,
    secret: true,
  }),
  DB_POOL_MAX: spec({ description: 'Postgres connections per process.', fallback: '10', parse: integer }),
  REDIS_URL: spec({
    description: 'Redis connection string. `npm start` starts a local server under `DATA_DIR` when unset.',
    parse: text,
  }),
  PRINCIPAL_SECRET: spec({
    description:
      'Shared secret for internal signed headers: the principal the gateway resolves (subgraphs verify it), and the note with which the facade tells the gateway it has already rate-limited a call.',
    parse: (raw, name) => {
      if (raw.length < 32) throw new Error(`${name} must be at least 32 characters`);
      return raw;
    },
    secret: true,
  }),
  RATE_LIMIT_WINDOW_S: spec({
    description: 'Window of the request rate limits, in seconds.',
    fallback: '60',
    parse: integer,
  }),
  RATE_LIMIT_PER_USER: spec({
    description:
      "Requests one credential (a user's token) may make per window at the facade and at the gateway's `/graphql`, across replicas (counted in Redis); more are answered 429 with `Retry-After`. 0: no limit.",
    fallback: '6000',
    parse: integer,
  }),
  RATE_LIMIT_PER_IP: spec({
    description: 'Requests without credentials one address may make per window, as `RATE_LIMIT_PER_USER`. 0: no limit.',
    fallback: '3000',
    parse: integer,
  }),
  AUTH_FAILURE_WINDOW_S: spec({
    description: 'Window of the failed-authentication limits, in seconds.',
    fallback: '900',
    parse: integer,
  }),
  AUTH_FAILURES_PER_IP: spec({
    description:
      'Failed authentications (`POST /session` and `/oauth/token` attempts that do not succeed, requests refused for a bad token, git basic credentials refused) one address may make per window. Past it, a refused credential from that address is answered 429 instead of 401; a valid token or password still passes. 0: no limit.',
    fallback: '100',
    parse: integer,
  }),
  AUTH_FAILURES_PER_LOGIN: spec({
    description:
      "Failed sign-ins for one login from one address per window (password guessing); a success starts the count again. Past it, as `AUTH_FAILURES_PER_IP`: that login's sign-ins from that address are checked once per `AUTH_RETRY_INTERVAL_S`, and a wrong password gets 429. 0: no limit.",
    fallback: '10',
    parse: integer,
  }),
  AUTH_RETRY_INTERVAL_S: spec({
    description:
      'Once a login has spent its failed-authentication budget (`AUTH_FAILURES_PER_LOGIN`) from an address, one of its sign-ins per this many seconds from there is still checked: the right password passes, the rest are answered 429 unchecked. It slows guessing to one try per interval without locking the owner out.',
    fallback: '10',
    parse: (raw, name) => {
      const value = integer(raw, name);
      if (value < 1) throw new Error(`${name} must be at least 1`);
      return value;
    },
  }),
  TRUSTED_PROXIES: spec({
    description:
      "Networks (CIDRs, comma-separated) of the proxies in front of the facade and the gateway: an ingress, a load balancer. Their `X-Forwarded-For` is believed, and the client address used for limits and logs is the first hop that is not one of them. Empty: nobody's, the peer's address is the client's.",
    fallback: '',
    parse: (raw, name) => parseNetworkList(raw, name),
  }),
  RATE_LIMIT_ALLOWLIST: spec({
    description:
      "Client addresses or networks (CIDRs, comma-separated) no rate limit applies to, as GitLab's `ip_whitelist`: monitoring, CI runners, an office. Compared with the client address `TRUSTED_PROXIES` decides.",
    fallback: '',
    parse: (raw, name) => parseNetworkList(raw, name),
  }),
  TOKEN_ENCRYPTION_KEY: spec({
    description:
      "Key identity seals users' private tokens with (AES-256-GCM; requests are matched by the tokens' SHA-256), so it can show GitLab 7's `private_token` to its owner. Keep it: tokens sealed under a lost key can no longer be shown, only reset. `npm start` keeps one in `DATA_DIR`.",
    parse: (raw, name) => {
      if (raw.length < 32) throw new Error(`${name} must be at least 32 characters`);
      return raw;
    },
    secret: true,
  }),
  PRINCIPAL_CACHE_TTL_MS: spec({
    description: 'How long the gateway caches a credential → principal lookup.',
    fallback: '5000',
    parse: integer,
  }),
  GRAPHQL_MAX_DEPTH: spec({
    description: "Deepest selection a GraphQL document may nest, fragments counted (the facade's deepest is 10).",
    fallback: '12',
    parse: integer,
  }),
  GRAPHQL_MAX_ALIASES: spec({
    description: "Most aliases a GraphQL document may use (the facade's most is 33).",
    fallback: '50',
    parse: integer,
  }),
  GRAPHQL_MAX_TOKENS: spec({
    description: "Most lexical tokens a GraphQL document may have (the facade's most is 206).",
    fallback: '1000',
    parse: integer,
  }),
  GRAPHQL_MAX_COST: spec({
    description:
      "Highest cost of a GraphQL document, graphql-armor's estimate: objects 2, scalars 1, times 1.5 per level (the facade's highest is 1,380).",
    fallback: '5000',
    parse: integer,
  }),
  SUBSCRIPTIONS_PER_USER: spec({
    description:
      'GraphQL subscriptions one user may hold open on one gateway process, and as many WebSocket connections; one more closes that socket with 4429.',
    fallback: '100',
    parse: integer,
  }),
  SUBSCRIPTIONS_PER_PROCESS: spec({
    description:
      'GraphQL subscriptions one gateway process holds open across all users, and as many WebSocket connections; one more closes that socket with 4429.',
    fallback: '10000',
    parse: integer,
  }),
  SUBSCRIPTION_QUEUE_LIMIT: spec({
    description:
      'Messages one subscription may have waiting for its client to read; one more closes the socket with 4008 (slow consumer).',
    fallback: '256',
    parse: integer,
  }),
  SUBSCRIPTION_READ_INTERVAL_MS: spec({
    description:
      'How often at most the gateway reads the objects of the waiting subscription messages of one group of subscribers (one principal, one selection): the first after a quiet spell is read at once, later ones wait for the next read. Longer means fewer queries and later messages; under sustained load fewer queries left more of the machine for the messages (the bench at 100 events/s: p99 123-124 ms at 80 against 176-278 at 40).',
    fallback: '80',
    parse: integer,
  }),
  ACCESS_CACHE_TTL_MS: spec({
    description:
      "How long a service reuses membership's answer to what a user may do on a project; membership's events end it sooner.",
    fallback: '2000',
    parse: integer,
  }),
  OAUTH_TOKEN_TTL_S: spec({
    description: 'Lifetime of OAuth access tokens, in seconds.',
    fallback: '7200',
    parse: integer,
  }),
  EVENTS_STREAM_MAXLEN: spec({
    description: 'Approximate length cap of each Redis event stream fed by the outbox relays.',
    fallback: '100000',
    parse: integer,
  }),
  LOG_LEVEL: spec({ description: 'pino log level.', fallback: 'info', parse: level }),
  OTEL_EXPORTER_OTLP_ENDPOINT: spec({
    description:
      'OTLP/HTTP collector every process sends its trace spans to (`<endpoint>/v1/traces`); one W3C `traceparent` follows a request across processes, Redis events and hook jobs, and log lines inside a request carry `trace_id`. Unset: tracing is off and its SDK not loaded.',
    parse: url,
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: spec({
    description: 'Encoding of exported spans: `http/protobuf` or `http/json`.',
    fallback: 'http/protobuf',
    parse: oneOf(['http/protobuf', 'http/json'] as const),
  }),
  OTEL_SERVICE_NAME: spec({
    description:
      "A process's `service.name` in its spans; unset, the name of its folder (`identity`, `gateway`, `rest-facade`…). The local launcher names the hook workers `hooks-worker`.",
    parse: text,
  }),
  OTEL_BSP_SCHEDULE_DELAY: spec({
    description: 'Milliseconds finished spans wait in a batch before they are exported.',
    fallback: '5000',
    parse: integer,
  }),
  RENDERED_CACHE_MIB: spec({
    description:
      "How much v3 JSON the REST facade keeps of the projects and repository folders it rendered, reused while a project's revision or a folder's tree stays the same (a list page then asks the gateway for ids and revisions only, a folder for its tree id). 0 keeps none.",
    fallback: '16',
    parse: (raw, name) => {
      const value = integer(raw, name);
      if (value < 0) throw new Error(`${name} must be 0 or more, got "${raw}"`);
      return value;
    },
  }),
  SHUTDOWN_GRACE_MS: spec({
    description: 'How long a process waits for in-flight work on SIGTERM before exiting.',
    fallback: '10000',
    parse: integer,
  }),
  LOCAL_POSTGRES_PORT: spec({
    description: 'Port of the Postgres server `npm start` runs when `DATABASE_URL` is unset.',
    fallback: '15432',
    parse: port,
  }),
  LOCAL_REDIS_PORT: spec({
    description: 'Port of the Redis server `npm start` runs when `REDIS_URL` is unset.',
    fallback: '16379',
    parse: port,
  }),
  DATA_DIR: spec({
    description: 'Where `npm start` keeps local Postgres and Redis data.',
    fallback: '.data',
    parse: text,
  }),
  ROOT_TOKEN: spec({
    description: 'Private token given to the seeded admin `root` (20 characters); generated when unset.',
    parse: text,
    secret: true,
  }),
  ROOT_PASSWORD: spec({
    description: 'Password given to `root`; generated on first seed when unset.',
    parse: text,
    secret: true,
  }),
} as const;

export type VariableName = keyof typeof CONFIG_TABLE;
export type Config = { [K in VariableName]: ReturnType<(typeof CONFIG_TABLE)[K]['parse']> };

/**
 * Reads the named variables, applying defaults. Throws one error listing every missing or
 * malformed variable so a misconfigured pod fails at start with the whole story.
 * Names in `optional` may stay unset (their value is then undefined).
 */
export function loadConfig<K extends VariableName, O extends VariableName = never>(
  names: readonly K[],
  options: { optional?: readonly O[]; env?: Env } = {},
): Pick<Config, K> & Partial<Pick<Config, O>> {
  const env = options.env ?? process.env;
  const get = (name: string): string | undefined => {
    const raw = env[name];
    if (raw !== undefined && raw !== '') return raw;
    const { fallback } = CONFIG_TABLE[name as VariableName] as VariableSpec<unknown>;
    return typeof fallback === 'function' ? fallback(get) : fallback;
  };
  const problems: string[] = [];
  const result: Record<string, unknown> = {};
  for (const name of [...names, ...(options.optional ?? [])]) {
    const raw = get(name);
    if (raw === undefined) {
      if (!(options.optional as readonly string[] | undefined)?.includes(name)) problems.push(`${name} is required`);
      continue;
    }
    try {
      result[name] = (CONFIG_TABLE[name] as VariableSpec<unknown>).parse(raw, name);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return result as Pick<Config, K> & Partial<Pick<Config, O>>;
}

/** The configuration table of docs/configuration.md, rendered from CONFIG_TABLE. */
export function renderConfigTable(): string {
  const rows = Object.entries(CONFIG_TABLE).map(([name, s]) => {
    const v = s as VariableSpec<unknown>;
    const fallback =
      typeof v.fallback === 'function'
        ? `\`${v.fallbackText}\``
        : v.fallback === ''
          ? 'empty'
          : v.fallback !== undefined
            ? `\`${v.fallback}\``
            : v.secret
              ? 'generated or none'
              : 'none';
    return `| \`${name}\` | ${fallback} | ${v.description} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
