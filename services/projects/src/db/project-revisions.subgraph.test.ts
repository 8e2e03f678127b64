import { resolve } from 'node:path';
import { pageWindow, type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { findProjectByFullPath, findShownProjectsByIds, listProjects, type ListFilter } from './projects';

// Project.revision's digest (revisionDigest): the same from every read of an unchanged project,
// whichever rows it was read with, and different after any change to a row its fields show.
describe('the revision digest of shown projects', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  const all: ListFilter = { audience: { kind: 'all' }, orderBy: 'id', sort: 'asc' };

  beforeAll(async () => {
    db = await createTestSchema('projects', resolve(__dirname, '..', '..', 'migrations'));
    const { sql } = db;
    for (const id of [1, 2]) {
      await sql`insert into namespaces (id, path, name, kind, description, owner_id, owner, created_at, updated_at)
        values (${id}, ${'ns' + id}, ${'NS ' + id}, 'user', '', ${id}, ${sql.json({ id, name: 'Owner ' + id })}, now(), now())`;
    }
    for (let i = 1; i <= 6; i++) {
      await sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, visibility_level,
          archived, forked_from_project_id)
        values (${(i % 2) + 1}, ${'ns' + ((i % 2) + 1)}, ${'NS ' + ((i % 2) + 1)}, ${(i % 2) + 1}, 1, ${'p' + i}, ${'p' + i}, 0,
          false, ${i === 4 ? 1 : null})`;
    }
  });
  afterAll(async () => db?.drop());

  /** Each project's digest as a page of ids and revisions gives it. */
  async function listed(): Promise<Map<number, string>> {
    const { rows } = await listProjects(db.sql, all, pageWindow(1, 100), 'revisions');
    return new Map(rows.map((row) => [row.id, row.revision]));
  }

  it('is the same from a revisions page, a shown page, a read by id and one by path', async () => {
    const revisions = await listed();
    expect(revisions.size).toBe(6);
    const { rows: shown } = await listProjects(db.sql, all, pageWindow(1, 100));
    for (const row of shown) expect(row.revision).toBe(revisions.get(row.id));
    for (const row of await findShownProjectsByIds(db.sql, [1, 4])) expect(row.revision).toBe(revisions.get(row.id));
    expect((await findProjectByFullPath(db.sql, 'ns1', 'p2'))?.revision).toBe(revisions.get(2));
    // Read again, nothing changed: the same.
    expect(await listed()).toEqual(revisions);
  });

  it('changes with the project row, its namespace copy, its fork count and its fork source, and only there', async () => {
    const { sql } = db;
    const changes: Array<[string, () => Promise<unknown>, number[]]> = [
      ['a column no field shows', () => sql`update projects set repository_storage = 'other' where id = 2`, [2]],
      ['the description', () => sql`update projects set description = 'new' where id = 3`, [3]],
      // The owner's profile lives in the namespace copy: every project of namespace 2 (ids 1, 3, 5),
      // and 4, a fork of 1, whose forked_from_project shows 1's namespace name.
      [
        'the owner profile',
        () => sql`update namespaces set owner = ${sql.json({ id: 2, name: 'Renamed' })} where id = 2`,
        [1, 3, 4, 5],
      ],
      // Project 4 is a fork of 1: a second fork changes 1's count; 6 becomes a fork of 5.
      ['a new fork', () => sql`update projects set forked_from_project_id = 5 where id = 6`, [5, 6]],
      // Project 4's source is 1: a change of 1 shows in 4's forked_from_project.
      ['the fork source', () => sql`update projects set name = 'p1 renamed' where id = 1`, [1, 4]],
    ];
    for (const [what, change, affected] of changes) {
      const before = await listed();
      await change();
      const after = await listed();
      const changed = [...after].filter(([id, revision]) => before.get(id) !== revision).map(([id]) => id);
      expect({ what, changed: changed.sort() }).toEqual({ what, changed: affected });
    }
  });
});
