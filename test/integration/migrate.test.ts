import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMON_MIGRATIONS_DIR, createLogger, createSql, migrate, type Sql } from '@hub/common';
import { unique } from '../support/api';
import { stackInfo } from '../support/stack-info';

// Every service schema gets the common migrations first, whatever their number.
const COMMON = readdirSync(COMMON_MIGRATIONS_DIR)
  .filter((name) => name.endsWith('.sql'))
  .sort()
  .map((name) => `common/${name}`);

describe('per-service migrations', () => {
  const logger = createLogger('migrate-test', 'silent');
  const schemas: string[] = [];
  const pools: Sql[] = [];
  const dirs: string[] = [];

  const setup = (files: Record<string, string>) => {
    const schema = unique('mig_');
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const sql = createSql({ url: stackInfo().databaseUrl, schema, max: 4 });
    schemas.push(schema);
    pools.push(sql);
    dirs.push(dir);
    return { schema, dir, sql, run: () => migrate({ sql, schema, dir, logger }) };
  };

  afterAll(async () => {
    for (const [i, sql] of pools.entries()) {
      await sql.unsafe(`drop schema if exists "${schemas[i]}" cascade`);
      await sql.end();
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('applies the common and the service migrations once, in the service schema', async () => {
    const m = setup({ '0001_things.sql': 'create table things (id int primary key);' });
    expect(await m.run()).toEqual([...COMMON, `${m.schema}/0001_things.sql`]);
    expect(await m.run()).toEqual([]);
    const tables =
      await m.sql`select table_name from information_schema.tables where table_schema = ${m.schema} order by 1`;
    expect(tables.map((t) => t.tableName)).toEqual([
      'consumed_events',
      'deleted_projects',
      'outbox',
      'schema_migrations',
      'things',
    ]);
  });

  it('lets replicas start at once: concurrent runs apply each migration once', async () => {
    const m = setup({ '0001_things.sql': 'create table things (id int primary key);' });
    const results = await Promise.all([m.run(), m.run(), m.run()]);
    expect(results.flat().sort()).toEqual([...COMMON, `${m.schema}/0001_things.sql`].sort());
  });

  it('refuses a migration edited after it was applied', async () => {
    const m = setup({ '0001_things.sql': 'create table things (id int primary key);' });
    await m.run();
    writeFileSync(join(m.dir, '0001_things.sql'), 'create table things (id bigint primary key);');
    await expect(m.run()).rejects.toThrow(/changed after it was applied/);
  });

  it('applies nothing of a run that fails', async () => {
    const m = setup({
      '0001_ok.sql': 'create table ok (id int);',
      '0002_broken.sql': 'create table half (id int); select no_such_thing;',
    });
    await expect(m.run()).rejects.toThrow();
    const tables = await m.sql`select table_name from information_schema.tables where table_schema = ${m.schema}`;
    expect(tables).toEqual([]);
  });
});
