import { resolve } from 'node:path';
import { type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { createRepositoryPlacement } from './repository-placement';

describe('repository placement', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  beforeAll(async () => {
    db = await createTestSchema('projects', resolve(__dirname, '..', '..', 'migrations'));
  });
  afterAll(async () => db?.drop());

  const add = (storage: string | null, name: string) =>
    storage === null
      ? db.sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path) values (1, 'ns', 'ns', 1, 1, ${name}, ${name})`
      : db.sql`insert into projects (namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path, repository_storage)
          values (1, 'ns', 'ns', 1, 1, ${name}, ${name}, ${storage})`;

  it('puts projects recorded before shards on default, and a new one on the shard holding the fewest', async () => {
    await add(null, 'old');
    expect((await db.sql`select repository_storage from projects where name = 'old'`)[0].repositoryStorage).toBe(
      'default',
    );
    const place = createRepositoryPlacement({ sql: db.sql, shards: ['default', 'second', 'third'], recountAfterMs: 0 });
    // default holds one, the others none: the first of those named.
    expect(await place()).toBe('second');
    await add('second', 'a');
    expect(await place()).toBe('third');
    await add('third', 'b');
    await add('third', 'c');
    // Ties go to the first named.
    expect(await place()).toBe('default');
    // Only the shards named take new projects, however empty another is.
    expect(await createRepositoryPlacement({ sql: db.sql, shards: ['third'] })()).toBe('third');
    await add('retired', 'd');
    expect(await createRepositoryPlacement({ sql: db.sql, shards: ['default', 'second'] })()).toBe('default');
  });

  it('counts at most every so often, and counts the shards it picked meanwhile', async () => {
    // Now: default 1, second 1, third 2 (and one on a retired shard).
    const place = createRepositoryPlacement({ sql: db.sql, shards: ['default', 'second', 'third'] });
    const picked = [];
    for (let i = 0; i < 5; i++) picked.push(await place());
    expect(picked).toEqual(['default', 'second', 'default', 'second', 'third']);
    // Projects added elsewhere meanwhile (another replica) are seen at the next count only:
    // here all three hold three, and the first named is picked.
    await add('default', 'e');
    await add('default', 'f');
    expect(await place()).toBe('default');
  });
});
