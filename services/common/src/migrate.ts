import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from './config';
import { createLogger, type Logger } from './logger';
import { createSql, type Sql } from './db';

/** Migrations every service schema gets before its own (the outbox table). */
export const COMMON_MIGRATIONS_DIR = resolve(__dirname, '..', 'migrations');

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

function readMigrations(dir: string, prefix: string): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const sql = readFileSync(join(dir, file), 'utf8');
      return { name: `${prefix}/${file}`, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Brings one service's schema up to date: creates the schema, then applies the common
 * migrations and the service's own, each once, all in one transaction. An advisory lock
 * per schema lets any number of replicas start at once; an edited migration that was already
 * applied is refused rather than silently skipped.
 */
export async function migrate(options: { sql: Sql; schema: string; dir: string; logger: Logger }): Promise<string[]> {
  const { sql, schema, logger } = options;
  const migrations = [...readMigrations(COMMON_MIGRATIONS_DIR, 'common'), ...readMigrations(options.dir, schema)];
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${'migrate:' + schema}))`;
    await tx.unsafe(`create schema if not exists "${schema}"`);
    await tx.unsafe(`set local search_path to "${schema}"`);
    await tx`create table if not exists schema_migrations (
      name text primary key,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`;
    const done = new Map((await tx`select name, checksum from schema_migrations`).map((r) => [r.name, r.checksum]));
    for (const migration of migrations) {
      const seen = done.get(migration.name);
      if (seen === migration.checksum) continue;
      if (seen !== undefined) throw new Error(`migration ${migration.name} changed after it was applied`);
      await tx.savepoint(async (sp) => {
        await sp.unsafe(migration.sql);
        await sp`insert into schema_migrations (name, checksum) values (${migration.name}, ${migration.checksum})`;
      });
      applied.push(migration.name);
      logger.info({ migration: migration.name }, 'applied migration');
    }
  });
  return applied;
}

/** A service's `migrate` command: applies its migrations (as on start) and exits. */
export function runMigrations(schema: string, dir: string): void {
  const run = async () => {
    const config = loadConfig(['DATABASE_URL', 'LOG_LEVEL'] as const);
    const logger = createLogger(`${schema}-migrate`, config.LOG_LEVEL);
    const sql = createSql({ url: config.DATABASE_URL, schema, max: 1 });
    try {
      const applied = await migrate({ sql, schema, dir, logger });
      logger.info({ applied: applied.length }, 'schema up to date');
    } finally {
      await sql.end();
    }
  };
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
