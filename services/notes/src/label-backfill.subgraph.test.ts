import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger, migrate, type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';

const MIGRATIONS = resolve(__dirname, '..', 'migrations');
const LABELS_MIGRATION = '0005_labels_milestones.sql';

/** A folder holding the service's migrations up to (not including) `before`, or all of them. */
function migrationsDir(before?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'notes-migrations-'));
  for (const file of readdirSync(MIGRATIONS))
    if (file.endsWith('.sql') && (before === undefined || file < before))
      copyFileSync(join(MIGRATIONS, file), join(dir, file));
  return dir;
}

// Issues carried label names before labels had a table; 0005 makes those names the project's labels.
describe('notes migration 0005: labels from the names issues carried', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  const dirs: string[] = [];
  afterAll(async () => {
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('makes every name of 255 characters or fewer a label in the default colour, and leaves longer names on their issues only', async () => {
    dirs.push(migrationsDir(LABELS_MIGRATION), migrationsDir());
    db = await createTestSchema('notes', dirs[0]);
    const long = 'x'.repeat(300);
    const limit = 'y'.repeat(255);
    await db.sql`insert into issues (project_id, iid, title, author_id, labels) values
      (1, 1, 'a', 1, ${['bug', long]}::text[]), (1, 2, 'b', 1, ${['bug', limit]}::text[]), (2, 1, 'c', 1, ${['bug']}::text[])`;
    const [{ schema }] = await db.sql<{ schema: string }[]>`select current_schema() as schema`;
    expect(await migrate({ sql: db.sql, schema, dir: dirs[1], logger: createLogger('test', 'silent') })).toEqual(
      [LABELS_MIGRATION, ...readdirSync(MIGRATIONS).filter((f) => f > LABELS_MIGRATION)].map((f) => `${schema}/${f}`),
    );
    const labels = await db.sql<
      { projectId: number; title: string; color: string }[]
    >`select project_id, title, color from labels order by project_id, title`;
    expect(labels).toEqual([
      { projectId: 1, title: 'bug', color: '#428BCA' },
      { projectId: 1, title: limit, color: '#428BCA' },
      { projectId: 2, title: 'bug', color: '#428BCA' },
    ]);
    expect(
      (await db.sql<{ labels: string[] }[]>`select labels from issues where project_id = 1 and iid = 1`)[0].labels,
    ).toEqual(['bug', long]);
  });
});
