import postgres from 'postgres';
import { traceSql, tracingEnabled } from './trace-context';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

/**
 * A pool bound to one service's schema: `search_path` points at it, so a service's queries
 * name its own tables only and cannot wander into another service's schema by accident.
 */
export function createSql(options: { url: string; schema: string; max: number; onnotice?: boolean }): Sql {
  const sql = postgres(options.url, {
    max: options.max,
    idle_timeout: 60,
    connect_timeout: 10,
    connection: { search_path: options.schema, application_name: options.schema },
    // Migrations print NOTICEs for `if not exists`; they are noise in service logs.
    onnotice: options.onnotice ? undefined : () => {},
    // Column names come back camelCase and objects passed to sql() go in snake_case. Only column
    // names: postgres.camel would also rewrite the keys inside jsonb values (event payloads).
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel }, undefined: null },
  });
  return tracingEnabled() ? traceSql(sql, options.schema) : sql;
}

/** Readiness probe for a pool. */
export async function pingSql(sql: Sql): Promise<void> {
  await sql`select 1`;
}

/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards in it taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

/** Connection failures of the driver and the OS: the server is down or restarting, not the query wrong. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/**
 * Whether an error means the database is unreachable for now (down, restarting, recovering from
 * a crash): SQLSTATE class 08 (connection exception) and 57P01-57P03 (shut down, crashed, not yet
 * accepting connections), or a connection failure. Callers answer 503 and retry such errors,
 * where any other is a 500 or a poison event.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return CONNECTION_CODES.has(code) || /^08/.test(code) || /^57P0[123]$/.test(code);
}

/** Whether an error is Postgres refusing a row that a unique index already holds (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => (error as { code?: unknown })?.code === '23505';
