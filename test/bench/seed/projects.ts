import { createSql, type Sql } from '@hub/common';
import type { BenchApi } from './api';

/**
 * The bench user's projects. A few are made through the REST API (so every service has them as
 * the product makes them); the rest are copied from one of those in bulk, straight into the
 * tables of the services that own them (projects and membership), INSERT … SELECT … FROM
 * generate_series, one statement per table (the projects table in batches, see copyProjects).
 * The bench bypasses the API here because 100,000 projects at the API's pace (a request, events
 * and several services' writes each) would take the better part of an hour; what the list path
 * reads is the same rows either way. Every table of those schemas holding the template project's
 * rows is copied, so a table added later is seeded too.
 */
export class ProjectSeeder {
  private readonly sql: Sql;
  private template: number | null = null;
  private count = 0;
  /** Seconds the last bulk copy took (the product's triggers on those tables run for every row). */
  lastCopySeconds = 0;
  /** Projects the last bulk copy added, and how much the database grew by (tables and indexes). */
  lastCopy = { projects: 0, bytes: 0 };

  constructor(
    private readonly api: BenchApi & { userId: number },
    databaseUrl: string,
  ) {
    this.sql = createSql({ url: databaseUrl, schema: 'projects', max: 1 });
  }

  /** Projects the bench user owns (and so sees in GET /projects) so far. */
  get total(): number {
    return this.count;
  }

  private async databaseBytes(): Promise<number> {
    const [{ bytes }] = await this.sql<{ bytes: string }[]>`select pg_database_size(current_database()) as bytes`;
    return Number(bytes);
  }

  private async create(name: string): Promise<number> {
    const project = await this.api.post<{ id: number }>('/projects', { name });
    this.count++;
    return project.id;
  }

  /** Brings the user's project count to `target`; answers the id of the first API-made project. */
  async topUp(target: number): Promise<number> {
    if (this.template === null) {
      this.template = await this.create('bench-template');
      for (let i = 1; i < Math.min(5, target); i++) await this.create(`bench-api-${i}`);
    }
    const bulk = target - this.count - 1; // the last one through the API again, see below
    if (bulk > 0) {
      const started = performance.now();
      const from = this.count;
      const sizeBefore = await this.databaseBytes();
      await this.copyProjects(from, bulk);
      this.count += bulk;
      this.lastCopySeconds = (performance.now() - started) / 1000;
      this.lastCopy = { projects: bulk, bytes: (await this.databaseBytes()) - sizeBefore };
      process.stdout.write(`  copied ${bulk} projects in ${this.lastCopySeconds.toFixed(1)} s\n`);
    }
    // One project through the API after the bulk rows: its events reach every cache of the user's
    // memberships the way any new project does, so no cache answers from before the copy.
    if (this.count < target) await this.create(`bench-api-last-${target}`);
    await this.verify(target);
    return this.template;
  }

  private async copyProjects(from: number, n: number): Promise<void> {
    const sql = this.sql;
    const template = this.template!;
    const columns = async (schema: string, table: string) =>
      (
        await sql`select column_name, column_default from information_schema.columns where table_schema = ${schema} and table_name = ${table} order by ordinal_position`
      ).map((c) => ({ name: c.columnName as string, serial: String(c.columnDefault ?? '').startsWith('nextval(') }));
    const q = (name: string) => `"${name}"`;
    // projects.projects: new ids from the sequence, names and paths unique per copy.
    const projectColumns = (await columns('projects', 'projects')).filter((c) => !c.serial);
    const override: Record<string, string> = {
      name: `'bench-bulk-' || g`,
      path: `'bench-bulk-' || g`,
      created_at: `t.created_at + g * interval '1 millisecond'`,
      updated_at: `t.updated_at + g * interval '1 millisecond'`,
      last_activity_at: `t.last_activity_at + g * interval '1 millisecond'`,
    };
    // Each step's time is printed: a slow one shows which table (an index or trigger added later) costs it.
    const step = async (what: string, statement: string) => {
      const started = performance.now();
      await sql.unsafe(statement);
      process.stdout.write(`    ${what}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    };
    const first = await sql.unsafe(`select coalesce(max(id), 0) as max from projects.projects`);
    const before = Number(first[0].max);
    await step(
      'projects.projects',
      `insert into projects.projects (${projectColumns.map((c) => q(c.name)).join(', ')})
       select ${projectColumns.map((c) => override[c.name] ?? `t.${q(c.name)}`).join(', ')}
       from projects.projects t, generate_series(${from + 1}, ${from + n}) g where t.id = ${template} order by g`,
    );
    // Every other table of the two schemas with rows of the template project: one copy per new project.
    const tables = await sql`
      select c.table_schema, c.table_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema in ('projects', 'membership') and c.column_name = 'project_id'
        and c.table_name not in ('outbox', 'consumed_events', 'schema_migrations')
      order by (c.table_name = 'project_facts') desc, c.table_schema, c.table_name`;
    for (const { tableSchema, tableName } of tables) {
      const name = `${q(tableSchema)}.${q(tableName)}`;
      const [{ has }] = await sql.unsafe(`select exists (select 1 from ${name} where project_id = ${template}) as has`);
      if (!has) continue;
      const cols = (await columns(tableSchema, tableName)).filter((c) => !c.serial);
      await step(
        name,
        `insert into ${name} (${cols.map((c) => q(c.name)).join(', ')})
         select ${cols.map((c) => (c.name === 'project_id' ? 'p.id' : `t.${q(c.name)}`)).join(', ')}
         from ${name} t, projects.projects p
         where t.project_id = ${template} and p.id > ${before} and p.name like 'bench-bulk-%'`,
      );
    }
    // As the product's tables would have after growing: planner statistics that know the size.
    for (const { tableSchema, tableName } of [{ tableSchema: 'projects', tableName: 'projects' }, ...tables]) {
      await step(`analyze ${tableSchema}.${tableName}`, `analyze "${tableSchema}"."${tableName}"`);
    }
  }

  /** The list's total must be what was seeded, or the figures would be of another size. */
  private async verify(expected: number): Promise<void> {
    const response = await fetch(`${this.api.restUrl}/projects?per_page=1`, {
      headers: { 'PRIVATE-TOKEN': this.api.token },
    });
    const total = Number(response.headers.get('x-total'));
    if (response.status !== 200 || total !== expected) {
      throw new Error(
        `seeding: GET /projects shows ${total} projects for the bench user (status ${response.status}), ${expected} were seeded: ${(await response.text()).slice(0, 500)}`,
      );
    }
  }

  close(): Promise<void> {
    return this.sql.end({ timeout: 5 });
  }
}
