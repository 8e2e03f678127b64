import { resolve } from 'node:path';
import { pageWindow, type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { findProjectByFullPath, findShownProjectsByIds, listProjects, type ProjectOrder } from './projects';

// Reads that show projects bring each project's namespace copy and fork count in the same
// statement. They must be the same as reading them separately, and the page keep its order.
describe('projects shown with their namespace copy and fork count', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  beforeAll(async () => {
    db = await createTestSchema('projects', resolve(__dirname, '..', '..', 'migrations'));
    const { sql } = db;
    for (const id of [1, 2]) {
      await sql`insert into namespaces (id, path, name, kind, description, owner_id, owner, created_at, updated_at)
        values (${id}, ${'ns' + id}, ${'NS ' + id}, 'user', '', ${id}, ${sql.json({ id, username: 'ns' + id })}, now(), now())`;
    }
    // Namespace 3 has no copy yet: its projects show none (the resolver asks identity).
    for (let i = 1; i <= 30; i++) {
      const namespace = (i % 3) + 1;
      await sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, visibility_level,
          archived, forked_from_project_id, created_at)
        values (${namespace}, ${'ns' + namespace}, ${'NS ' + namespace}, ${namespace}, 1, ${'p' + i}, ${'p' + i}, ${i % 3 === 0 ? 20 : 0},
          false, ${i > 5 ? (i % 5) + 1 : null}, now() - ${`${i % 7} minutes`}::interval)`;
    }
  });
  afterAll(async () => db?.drop());

  async function expected(ids: number[]) {
    const { sql } = db;
    const forks = new Map(
      (
        await sql<
          { id: number; count: number }[]
        >`select forked_from_project_id as id, count(*)::int as count from projects group by 1`
      ).map((r) => [r.id, r.count]),
    );
    const namespaces = new Map((await sql<{ id: number }[]>`select * from namespaces`).map((n) => [n.id, n]));
    const rows = await sql<{ id: number; namespaceId: number }[]>`select * from projects where id in ${sql(ids)}`;
    return new Map(
      rows.map((row) => [
        row.id,
        { ...row, forksCount: forks.get(row.id) ?? 0, namespaceCopy: namespaces.get(row.namespaceId) ?? null },
      ]),
    );
  }

  it('lists pages in the requested order, each project with its extras', async () => {
    const orders: ProjectOrder[] = ['created_at', 'name', 'id', 'last_activity_at'];
    for (const orderBy of orders) {
      for (const sort of ['asc', 'desc'] as const) {
        const plain = await db.sql<
          { id: number }[]
        >`select id from projects order by ${db.sql(orderBy)} ${sort === 'asc' ? db.sql`asc` : db.sql`desc`}, id ${sort === 'asc' ? db.sql`asc` : db.sql`desc`}`;
        for (const page of [1, 2, 3]) {
          const { rows } = await listProjects(
            db.sql,
            { audience: { kind: 'all' }, orderBy, sort },
            pageWindow(page, 12),
          );
          expect(rows.map((r) => r.id)).toEqual(plain.slice((page - 1) * 12, page * 12).map((r) => r.id));
          const want = await expected(rows.map((r) => r.id));
          for (const row of rows) expect(row).toEqual(want.get(row.id));
        }
      }
    }
  });

  it('finds by ids and by full path with the same extras', async () => {
    const rows = await findShownProjectsByIds(db.sql, [1, 2, 3, 4, 999]);
    expect(rows.map((r) => r.id).sort()).toEqual([1, 2, 3, 4]);
    const want = await expected([1, 2, 3, 4]);
    for (const row of rows) expect(row).toEqual(want.get(row.id));
    expect(rows.find((r) => r.id === 1)!.forksCount).toBeGreaterThan(0);
    expect(rows.find((r) => r.id === 2)!.namespaceCopy).toBeNull();

    const byPath = await findProjectByFullPath(db.sql, 'NS2', 'P1');
    expect(byPath).toEqual(want.get(1));
    expect(await findProjectByFullPath(db.sql, 'ns2', 'nothing')).toBeUndefined();
  });
});
