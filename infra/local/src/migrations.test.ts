// Every service's migrations keep to expand, then contract (migration-rules.ts): a rolling upgrade
// runs them while the previous release still serves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { breachesOf, contractOf, statementsOf } from './migration-rules';

const SERVICES = resolve(__dirname, '..', '..', '..', 'services');

/**
 * Migrations released before this rule existed, which took things away in one step. They ran
 * long ago on every installation; the rule holds from the next one on.
 */
const BEFORE_THE_RULE = new Set([
  'hooks/0003_deliveries_without_project.sql',
  'identity/0005_private_token_digest.sql',
]);

const migrationDirs = readdirSync(SERVICES)
  .map((service) => ({ service, dir: join(SERVICES, service, 'migrations') }))
  .filter(({ dir }) => existsSync(dir));

describe('migrations expand before they contract', () => {
  const files = migrationDirs.flatMap(({ service, dir }) =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.sql'))
      .sort()
      .map((file, index, all) => ({
        name: `${service}/${file}`,
        sql: readFileSync(join(dir, file), 'utf8'),
        earlier: all.slice(0, index),
      })),
  );

  it('finds the migrations', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((file) => [file.name, file] as const))(
    '%s takes nothing away from the release before it, or is a marked contract step',
    (name, file) => {
      const breaches = breachesOf(file.sql);
      if (BEFORE_THE_RULE.has(name)) return expect(breaches.length).toBeGreaterThan(0);
      const expand = contractOf(file.sql);
      if (expand === null) return expect(breaches).toEqual([]);
      // A contract step names its expand step: an earlier migration of the same service.
      expect(file.earlier).toContain(expand);
    },
  );
});

describe('the expand/contract rule', () => {
  const reasons = (sql: string) => breachesOf(sql).map((breach) => breach.reason);

  it.each([
    ['drop table labels', 'drops table labels'],
    ['DROP TABLE IF EXISTS "notes";', 'drops table notes'],
    ['alter table users drop column private_token', 'drops a column of users'],
    ['alter table users drop email', 'drops a column of users'],
    ['alter table users rename column email to mail', 'renames a column of users'],
    ['alter table users rename to people', 'renames table users'],
    ['alter table hooks add column kind text not null', 'adds a NOT NULL column without a default to hooks'],
    ['alter table hooks alter column url set not null', 'makes a column of hooks NOT NULL'],
    ['alter table hooks alter column id type bigint', 'changes the type of a column of hooks'],
    ['alter table only hooks add column a int, drop column b', 'drops a column of hooks'],
  ])('refuses %s', (sql, reason) => {
    expect(reasons(sql).join('\n')).toContain(reason);
  });

  it.each([
    'alter table hooks add column kind text not null default $$project$$',
    'alter table hooks add column note text',
    "alter table hooks add constraint hooks_url_check check (url <> '')",
    'alter table hooks drop constraint hooks_url_check',
    'alter table hooks alter column url drop not null',
    'alter table users rename constraint a to b',
    'create index hooks_kind on hooks (kind); drop index hooks_kind',
    // A table made in the same migration is the migration's own to shape.
    'create table t (id int); alter table t add column x int not null; alter table t rename to u; drop table t',
    "drop trigger t on projects; drop function f(); comment on table x is 'drop table y;'",
  ])('allows %s', (sql) => {
    expect(breachesOf(sql)).toEqual([]);
  });

  it('reads statements whole: quoted text, dollar-quoted bodies and comments', () => {
    expect(
      statementsOf(`-- drop table a;
        create function f() returns int language sql as $body$ select 1; $body$;
        /* alter table b drop column c; */ insert into t values ('x;y', 'it''s');`),
    ).toEqual([
      'create function f() returns int language sql as $body$ select 1; $body$',
      "insert into t values ('x;y', 'it''s')",
    ]);
  });

  it('reads the contract marker', () => {
    expect(contractOf('-- why\n-- contract: 0004_expand.sql\nalter table t drop column c;')).toBe('0004_expand.sql');
    expect(contractOf('alter table t drop column c;')).toBeNull();
  });
});
