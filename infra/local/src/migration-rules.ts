// Migrations run while the previous release still serves (a rolling upgrade: docs/deploy.md), so
// each release's migrations may only expand what that release reads and writes. Taking something
// away (a table, a column, a name) or demanding a value old writers never give (NOT NULL without a
// default) waits for the next release, as the contract step of an earlier expand, marked with
//   -- contract: <file of the expand step>
// naming an earlier migration of the same service. This module finds the statements that break
// the rule; `migrations.test.ts` runs it over every service's migrations in `npm test`.

export interface Breach {
  /** The statement, whitespace collapsed. */
  statement: string;
  /** What it takes away from the previous release. */
  reason: string;
}

/** A migration's statements, comments dropped; quoted text and dollar-quoted bodies stay whole. */
export function statementsOf(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      current += ' ';
      continue;
    }
    const dollar = /^\$[A-Za-z_0-9]*\$/.exec(rest);
    if (dollar) {
      const end = sql.indexOf(dollar[0], i + dollar[0].length);
      const stop = end < 0 ? sql.length : end + dollar[0].length;
      current += sql.slice(i, stop);
      i = stop;
      continue;
    }
    const quote = sql[i];
    if (quote === "'" || quote === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === quote && sql[j + 1] !== quote)) j += sql[j] === quote ? 2 : 1;
      current += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (quote === ';') {
      if (current.trim()) statements.push(current.trim().replace(/\s+/g, ' '));
      current = '';
    } else current += quote;
    i++;
  }
  if (current.trim()) statements.push(current.trim().replace(/\s+/g, ' '));
  return statements;
}

/** The top-level comma-separated parts of an ALTER TABLE's action list (commas in parentheses stay). */
function actionsOf(list: string): string[] {
  const actions: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      actions.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) actions.push(current.trim());
  return actions;
}

const NAME = String.raw`(?:"[^"]+"|[a-z_][a-z_0-9$]*)(?:\.(?:"[^"]+"|[a-z_][a-z_0-9$]*))?`;
const unquoted = (name: string) => name.replace(/"/g, '').replace(/^.*\./, '');

/** The statements of one migration that take something away from the release before it. */
export function breachesOf(sql: string): Breach[] {
  const statements = statementsOf(sql);
  const created = new Set<string>();
  for (const statement of statements) {
    const made = new RegExp(`^create (?:unlogged )?table (?:if not exists )?(${NAME})`, 'i').exec(statement);
    if (made) created.add(unquoted(made[1]!.toLowerCase()));
  }
  const breaches: Breach[] = [];
  const refuse = (statement: string, reason: string) => breaches.push({ statement, reason });
  for (const statement of statements) {
    const lower = statement.toLowerCase();
    const dropped = new RegExp(`^drop table (?:if exists )?(${NAME}(?:\\s*,\\s*${NAME})*)`).exec(lower);
    if (dropped) {
      for (const table of dropped[1]!.split(',').map((t) => unquoted(t.trim())))
        if (!created.has(table)) refuse(statement, `drops table ${table}, which the previous release reads`);
      continue;
    }
    const altered = new RegExp(`^alter table (?:if exists )?(?:only )?(${NAME}) (.*)$`).exec(lower);
    if (!altered) continue;
    const table = unquoted(altered[1]!);
    if (created.has(table)) continue;
    for (const action of actionsOf(altered[2]!)) {
      if (/^rename /.test(action) && !/^rename constraint /.test(action))
        refuse(statement, `renames ${action.startsWith('rename to') ? 'table' : 'a column of'} ${table}`);
      else if (/^drop (column )?(?!constraint )/.test(action))
        refuse(statement, `drops a column of ${table}, which the previous release reads`);
      else if (/^add (column )?(?!constraint |primary |unique |foreign |check )/.test(action)) {
        if (/\bnot null\b/.test(action) && !/\bdefault\b/.test(action) && !/\bgenerated\b/.test(action))
          refuse(
            statement,
            `adds a NOT NULL column without a default to ${table}: the previous release's inserts fail`,
          );
      } else if (/^alter (column )?\S+ set not null/.test(action))
        refuse(statement, `makes a column of ${table} NOT NULL: the previous release may leave it empty`);
      else if (/^alter (column )?\S+ (set data )?type /.test(action))
        refuse(statement, `changes the type of a column of ${table}, which the previous release reads`);
    }
  }
  return breaches;
}

/** The expand step a migration names as its contract step's, if it is marked as one. */
export const contractOf = (sql: string): string | null => /^\s*--\s*contract:\s*(\S+)\s*$/m.exec(sql)?.[1] ?? null;
