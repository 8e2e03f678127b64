import { createRedis, eventStream, type Redis } from '@hub/common';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { capture } from './files';

/** What the database snapshot holds of the events, so a restore knows where the system stood. */
export interface EventPositions {
  /**
   * Per stream (`events:<service>`): the last entry relayed before the snapshot, and where each
   * consumer group stood (all of them at that entry: the backup waits for them to get there).
   */
  streams: Record<string, { lastId: string | null; groups: Record<string, string> }>;
  /** Per schema: events recorded but not yet relayed; they are in the snapshot and relayed after a restore. */
  outbox: Record<string, { rows: number; lastId: number | null }>;
  /** Hook deliveries not yet made: rebuilt into the delivery queue from the snapshot. */
  pendingDeliveries: number;
}

export interface DatabaseSnapshot {
  serverVersion: string;
  pgDumpVersion: string;
  /** Every service schema (those with an outbox) and the migrations applied to it. */
  schemas: Record<string, string[]>;
  events: EventPositions;
  /** Every project in the snapshot: where its repository is, and its default branch. */
  projects: Array<{ id: number; storage: string; defaultBranch: string }>;
}

/**
 * A Postgres client program: the newest server version's under /usr/lib/postgresql (where the
 * local stack finds its server), else the one on PATH (the images').
 */
export function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', name)))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(base, versions[0], 'bin', name);
  }
  return name;
}

// Two connections are held for the whole dump (the relays' locks, the snapshot): room for more.
const adminSql = (url: string) => postgres(url, { max: 4, onnotice: () => {}, idle_timeout: 5 });

async function serviceSchemas(sql: postgres.Sql): Promise<string[]> {
  const rows = await sql<{ schema: string }[]>`
    select table_schema as schema from information_schema.tables where table_name = 'outbox' order by 1`;
  return rows.map((r) => r.schema);
}

/** Reads XINFO's flat [key, value, ...] answers. */
const fields = (flat: unknown[]) => {
  const map: Record<string, unknown> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) map[String(flat[i])] = flat[i + 1];
  return map;
};

async function streamState(redis: Redis, stream: string) {
  const exists = (await redis.exists(stream)) === 1;
  if (!exists) return null;
  const info = fields((await redis.call('XINFO', 'STREAM', stream)) as unknown[]);
  const groups = ((await redis.call('XINFO', 'GROUPS', stream)) as unknown[][]).map(fields);
  return {
    lastId: String(info['last-generated-id']),
    groups: groups.map((g) => ({
      name: String(g.name),
      pending: Number(g.pending),
      lastDelivered: String(g['last-delivered-id']),
    })),
  };
}

/**
 * Dumps every service schema from one snapshot to `file`, taken at a moment when the snapshot and
 * the event streams agree: every relay is paused (their advisory locks held), then every consumer
 * group is waited for until it has handled all that was relayed. At that moment each event is
 * either still in an outbox of the snapshot (relayed again after a restore) or handled, with its
 * effects in the snapshot; none lives only in Redis, so Redis needs no saving. Relays resume as
 * soon as the snapshot is exported; the dump then reads it while the system serves.
 */
export async function dumpDatabase(options: {
  databaseUrl: string;
  redisUrl: string;
  file: string;
  log: (line: string) => void;
  /** How long consumer groups may take to catch up while relays are paused. */
  drainTimeoutMs: number;
}): Promise<DatabaseSnapshot> {
  const { log } = options;
  const sql = adminSql(options.databaseUrl);
  const redis = createRedis(options.redisUrl, { blocking: true });
  const locks = await sql.reserve();
  const snapshot = await sql.reserve();
  try {
    const schemas = await serviceSchemas(sql);
    if (schemas.length === 0)
      throw new Error('the database holds no service schema (no outbox table): nothing to back up');
    // Same keys as the relays' (outbox.ts); a relay in the middle of a batch is waited for.
    for (const schema of schemas) await locks`select pg_advisory_lock(hashtext(${'outbox:' + schema}))`;
    log(`relays paused; waiting for consumers to handle what was relayed`);
    const deadline = Date.now() + options.drainTimeoutMs;
    let streams: EventPositions['streams'] = {};
    for (;;) {
      const behind: string[] = [];
      streams = {};
      for (const schema of schemas) {
        const stream = eventStream(schema);
        const state = await streamState(redis, stream);
        if (!state) continue;
        streams[stream] = {
          lastId: state.lastId,
          groups: Object.fromEntries(state.groups.map((g) => [g.name, g.lastDelivered])),
        };
        for (const g of state.groups) {
          if (g.pending > 0 || g.lastDelivered !== state.lastId) {
            behind.push(`${g.name} on ${stream} (${g.pending} pending, at ${g.lastDelivered} of ${state.lastId})`);
          }
        }
      }
      if (behind.length === 0) break;
      if (Date.now() > deadline) {
        throw new Error(
          `consumer groups did not catch up within ${options.drainTimeoutMs} ms: ${behind.join('; ')}. Are all services running?`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await snapshot.unsafe('begin isolation level repeatable read, read only');
    const [{ id }] = await snapshot<{ id: string }[]>`select pg_export_snapshot() as id`;
    // Nothing was relayed since the streams were read: the locks are still held.
    for (const schema of schemas) await locks`select pg_advisory_unlock(hashtext(${'outbox:' + schema}))`;
    log('snapshot taken; relays resumed');

    const outbox: EventPositions['outbox'] = {};
    const migrations: Record<string, string[]> = {};
    for (const schema of schemas) {
      const [row] = await snapshot.unsafe(
        `select count(*)::int as rows, max(id)::bigint as last from "${schema}".outbox`,
      );
      outbox[schema] = { rows: row.rows, lastId: row.last === null ? null : Number(row.last) };
      const applied = await snapshot
        .unsafe(`select name from "${schema}".schema_migrations order by name`)
        .catch(() => [] as { name: string }[]);
      migrations[schema] = applied.map((r) => r.name as string);
    }
    const pendingDeliveries = schemas.includes('hooks')
      ? Number((await snapshot.unsafe(`select count(*)::int as n from hooks.deliveries where state = 'pending'`))[0].n)
      : 0;
    const projects = schemas.includes('projects')
      ? (
          await snapshot.unsafe(
            'select id, repository_storage as storage, default_branch from projects.projects order by id',
          )
        ).map((r) => ({ id: Number(r.id), storage: String(r.storage), defaultBranch: String(r.default_branch) }))
      : [];
    const [{ version }] = await snapshot<{ version: string }[]>`select current_setting('server_version') as version`;
    const pgDump = pgTool('pg_dump');
    const pgDumpVersion = (await capture(pgDump, ['--version'])).trim();
    await capture(pgDump, [
      `--dbname=${options.databaseUrl}`,
      `--snapshot=${id}`,
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${options.file}`,
    ]);
    await snapshot.unsafe('commit');
    return {
      serverVersion: version,
      pgDumpVersion,
      schemas: migrations,
      events: { streams, outbox, pendingDeliveries },
      projects,
    };
  } finally {
    locks.release();
    snapshot.release();
    await sql.end();
    redis.disconnect();
  }
}

/** Refuses a database that holds any table: a restore goes onto an empty system only. */
export async function checkEmptyDatabase(databaseUrl: string): Promise<void> {
  const sql = adminSql(databaseUrl);
  try {
    const rows = await sql<{ schema: string }[]>`
      select distinct table_schema as schema from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema') order by 1`;
    if (rows.length) {
      throw new Error(
        `the database is not empty (it has tables in ${rows.map((r) => r.schema).join(', ')}): restore onto a new database`,
      );
    }
  } finally {
    await sql.end();
  }
}

/** Checks that pg_restore can read the dump's table of contents, without writing anything. */
export async function checkDump(file: string): Promise<void> {
  await capture(pgTool('pg_restore'), ['--list', file]);
}

/** Restores the dump in one transaction: a failure leaves the database as empty as it was. */
export async function restoreDatabase(databaseUrl: string, file: string): Promise<void> {
  await capture(pgTool('pg_restore'), [
    `--dbname=${databaseUrl}`,
    '--single-transaction',
    '--exit-on-error',
    '--no-owner',
    '--no-privileges',
    file,
  ]);
}

/** Runs `use` with a client of the database, closed after. */
export async function withDatabase<T>(databaseUrl: string, use: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = adminSql(databaseUrl);
  try {
    return await use(sql);
  } finally {
    await sql.end();
  }
}
