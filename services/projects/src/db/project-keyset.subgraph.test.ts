import { resolve } from 'node:path';
import { type CursorKey, type KeysetWindow, type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { listProjectsKeyset, type ListAudience, type ListFilter, type ProjectOrder } from './projects';

// Keyset pages (the public schema's cursors): paging through a list while projects are created
// and deleted shows no project twice and skips none of those that stayed, in every order, both
// ways. Many rows share a created_at (made by one statement) and differ in microseconds only.
describe('keyset pages of project lists', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  beforeAll(async () => {
    db = await createTestSchema('projects', resolve(__dirname, '..', '..', 'migrations'));
    await db.sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, visibility_level)
      select g, 'ns', 'ns', 1 + g % 3, 1, 'p' || (g % 17), 'path' || g, (g % 3) * 10 from generate_series(1, 120) as g`;
    // Rows a microsecond apart, which a millisecond cursor would confuse.
    for (let i = 0; i < 6; i++)
      await db.sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, created_at)
        values (${1000 + i}, 'ns', 'ns', 1, 1, 'micro', ${'micro' + i}, ${'2026-01-01 00:00:00.00000' + i + '+00'}::timestamptz)`;
  });
  afterAll(async () => db?.drop());

  const keyOf = (row: { sortKey: string[] }): CursorKey => row.sortKey;
  let made = 0;

  /** Every page of a list from one end, creating and deleting projects between pages. */
  async function pageThrough(filter: ListFilter, from: 'start' | 'end', churn: boolean) {
    const seen: number[] = [];
    const deleted = new Set<number>();
    let cursor: CursorKey | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const window: KeysetWindow = { after: null, before: null, limit: 7, from };
      if (from === 'start') window.after = cursor;
      else window.before = cursor;
      const { rows, beyond } = await listProjectsKeyset(db.sql, filter, window);
      expect(beyond).toBe(cursor !== null);
      const page = from === 'start' ? rows.slice(0, 7) : rows.slice(-7);
      seen.push(...(from === 'start' ? page : [...page].reverse()).map((row) => row.id));
      if (rows.length <= 7) return { seen, deleted };
      cursor = keyOf(from === 'start' ? page.at(-1)! : page[0]);
      if (churn) {
        const name = `new${++made}`;
        await db.sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, visibility_level)
          values (${5000 + made}, 'ns', 'ns', 1, 1, ${name}, ${name}, 20)`;
        const [gone] = await db.sql<{ id: number }[]>`
          delete from projects where id = (select id from projects where name <> 'micro' order by random() limit 1) returning id`;
        if (gone) deleted.add(gone.id);
      }
    }
    throw new Error('more than 100 pages');
  }

  const audiences: ListAudience[] = [
    { kind: 'all' },
    { kind: 'owner', userId: 1 },
    { kind: 'member', userId: 2, memberOf: [3, 6, 9, 12, 90] },
    { kind: 'visible', userId: 2, memberOf: [3, 6, 9] },
  ];
  const orders: ProjectOrder[] = ['created_at', 'name', 'id', 'last_activity_at'];

  it.each(orders.flatMap((orderBy) => (['asc', 'desc'] as const).map((sort) => [orderBy, sort] as const)))(
    'by %s %s, forward and backward, while projects come and go',
    async (orderBy, sort) => {
      for (const audience of audiences) {
        const filter: ListFilter = { audience, orderBy, sort };
        const before = new Set(
          (
            await listProjectsKeyset(db.sql, filter, { after: null, before: null, limit: 10_000, from: 'start' })
          ).rows.map((row) => row.id),
        );
        for (const from of ['start', 'end'] as const) {
          const { seen, deleted } = await pageThrough(filter, from, true);
          expect(seen.length).toBe(new Set(seen).size);
          const missed = [...before].filter((id) => !deleted.has(id) && !seen.includes(id));
          const stillThere = new Set(
            (await db.sql<{ id: number }[]>`select id from projects where id = any(${missed}::int[])`).map((r) => r.id),
          );
          expect({ audience, from, missed: missed.filter((id) => stillThere.has(id)) }).toEqual({
            audience,
            from,
            missed: [],
          });
        }
        // Without churn, both ways give the whole list in its order.
        const all = (
          await listProjectsKeyset(db.sql, filter, { after: null, before: null, limit: 10_000, from: 'start' })
        ).rows.map((row) => row.id);
        expect((await pageThrough(filter, 'start', false)).seen).toEqual(all);
        expect((await pageThrough(filter, 'end', false)).seen).toEqual([...all].reverse());
      }
    },
  );
});
