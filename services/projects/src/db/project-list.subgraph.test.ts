import { resolve } from 'node:path';
import { type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { listProjects, type ListAudience } from './projects';

// The list totals come from counters kept by triggers (migration 0004). After any mix of creates,
// transfers, visibility changes, archiving and deletions, every audience's total must equal a
// plain count of the rows it lists.
describe('project list totals', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  beforeAll(async () => {
    db = await createTestSchema('projects', resolve(__dirname, '..', '..', 'migrations'));
  });
  afterAll(async () => db?.drop());

  // A small deterministic generator (mulberry32): the same sequence on every run.
  let seed = 20261122;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const OWNERS = [1, 2, 3, null] as const;
  const VISIBILITY = [0, 10, 20] as const;

  let created = 0;
  async function mutateRandomly(sql: Sql, steps: number) {
    for (let step = 0; step < steps; step++) {
      const [existing] = await sql<{ id: number }[]>`select id from projects order by random() limit 1`;
      const action = existing
        ? pick(['create', 'create', 'owner', 'visibility', 'archive', 'rename', 'delete'] as const)
        : 'create';
      if (action === 'create') {
        const owner = pick(OWNERS);
        const name = `p${++created}`;
        await sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, visibility_level, archived)
          values (${owner ?? 100}, 'ns', 'ns', ${owner}, 1, ${name}, ${name}, ${pick(VISIBILITY)}, ${random() < 0.3})`;
      } else if (action === 'owner') {
        await sql`update projects set owner_id = ${pick(OWNERS)} where id = ${existing.id}`;
      } else if (action === 'visibility') {
        await sql`update projects set visibility_level = ${pick(VISIBILITY)} where id = ${existing.id}`;
      } else if (action === 'archive') {
        await sql`update projects set archived = not archived where id = ${existing.id}`;
      } else if (action === 'rename') {
        // Not a counted column: the update trigger's condition skips it.
        await sql`update projects set description = ${'d' + step} where id = ${existing.id}`;
      } else {
        await sql`delete from projects where id = ${existing.id}`;
      }
    }
  }

  async function expectTotalsToMatchRows(sql: Sql) {
    const ids = (await sql<{ id: number }[]>`select id from projects`).map((r) => r.id);
    const memberOf = ids.filter(() => random() < 0.3);
    const audiences: ListAudience[] = [{ kind: 'all' }];
    for (const userId of [1, 2, 3, 4]) {
      audiences.push(
        { kind: 'owner', userId },
        { kind: 'member', userId, memberOf },
        { kind: 'visible', userId, memberOf },
      );
    }
    for (const audience of audiences) {
      for (const archived of [undefined, true, false]) {
        const window = { page: 1, perPage: 1000, offset: 0 };
        const { rows, total } = await listProjects(
          sql,
          { audience, archived, orderBy: 'created_at', sort: 'desc' },
          window,
        );
        expect({ audience, archived, total }).toEqual({ audience, archived, total: rows.length });
      }
    }
  }

  it('equal a row count for every audience after random changes', async () => {
    await mutateRandomly(db.sql, 60);
    await expectTotalsToMatchRows(db.sql);
    await mutateRandomly(db.sql, 60);
    await expectTotalsToMatchRows(db.sql);
  });

  it('are exact after statements that write many projects at once', async () => {
    await db.sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, visibility_level)
      select 1 + g % 3, 'ns', 'ns', case when g % 4 = 0 then null else 1 + g % 3 end, 1, 'bulk' || g, 'bulk' || g, (g % 3) * 10
      from generate_series(1, 500) as g`;
    await expectTotalsToMatchRows(db.sql);
    await db.sql`update projects set archived = not archived, visibility_level = 20 where name like 'bulk%' and id % 2 = 0`;
    await db.sql`update projects set owner_id = 4 where name like 'bulk%' and id % 5 = 0`;
    await expectTotalsToMatchRows(db.sql);
    await db.sql`delete from projects where name like 'bulk%' and id % 3 = 0`;
    await expectTotalsToMatchRows(db.sql);
  });

  it('are exact under concurrent creates and deletes (no lost counter update, no deadlock)', async () => {
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        db.sql.begin(async (tx) => {
          const [row] = await tx<
            { id: number }[]
          >`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path)
            values (${(i % 3) + 1}, 'ns', 'ns', ${(i % 3) + 1}, 1, ${'c' + i}, ${'c' + i}) returning id`;
          if (i % 4 === 0) await tx`update projects set owner_id = ${((i + 1) % 3) + 1} where id = ${row.id}`;
          if (i % 5 === 0) await tx`delete from projects where id = ${row.id}`;
        }),
      ),
    );
    await expectTotalsToMatchRows(db.sql);
  });

  it('are exact after a write from a session of another search path (an operator, a bulk copy)', async () => {
    const [{ schema }] = await db.sql<{ schema: string }[]>`select current_schema() as schema`;
    await db.sql.begin(async (tx) => {
      await tx`set local search_path to public`;
      await tx.unsafe(`insert into "${schema}".projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, visibility_level)
        values (1, 'ns', 'ns', 1, 1, 'elsewhere', 'elsewhere', 20)`);
    });
    await expectTotalsToMatchRows(db.sql);
  });

  it('page through every audience in the order of the whole list, nothing missed or repeated', async () => {
    await mutateRandomly(db.sql, 60);
    // created_at in microseconds, as Postgres orders it (a Date keeps milliseconds: two rows made
    // in the same millisecond would tie here and not there).
    const all = await db.sql<{ id: number; ownerId: number | null; visibilityLevel: number; createdUs: number }[]>`
      select id, owner_id, visibility_level, (extract(epoch from created_at) * 1000000)::float8 as created_us from projects`;
    const everyThird = all.map((r) => r.id).filter((id) => id % 3 === 0);
    const shows = (audience: ListAudience, row: (typeof all)[number]) =>
      audience.kind === 'all' ||
      row.ownerId === audience.userId ||
      (audience.kind !== 'owner' && audience.memberOf.includes(row.id)) ||
      (audience.kind === 'visible' && row.visibilityLevel >= 10);
    for (const memberOf of [[], everyThird]) {
      for (const userId of [1, 2, 4]) {
        for (const audience of [
          { kind: 'owner', userId },
          { kind: 'member', userId, memberOf },
          { kind: 'visible', userId, memberOf },
        ] as ListAudience[]) {
          for (const sort of ['asc', 'desc'] as const) {
            const sign = sort === 'asc' ? 1 : -1;
            const expected = all
              .filter((row) => shows(audience, row))
              .sort((a, b) => sign * (a.createdUs - b.createdUs || a.id - b.id))
              .map((row) => row.id);
            const listed: number[] = [];
            for (let page = 1; ; page++) {
              const { rows } = await listProjects(
                db.sql,
                { audience, orderBy: 'created_at', sort },
                { page, perPage: 4, offset: (page - 1) * 4 },
              );
              listed.push(...rows.map((row) => row.id));
              if (rows.length < 4) break;
            }
            expect({ audience, sort, listed }).toEqual({ audience, sort, listed: expected });
          }
        }
      }
    }
  });
});
