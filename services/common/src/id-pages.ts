import type { PendingQuery, Row } from 'postgres';
import type { KeysetWindow } from './connections';
import type { Sql, TransactionSql } from './db';
import { keysetSql, type KeysetColumn } from './keyset-sql';
import type { PageWindow } from './pagination';

type Db = Sql | TransactionSql;
/** A `where ...` fragment, of any row type it was written with. */
type Fragment = PendingQuery<Row[]>;

/** The id alone: unique, so it is its own tiebreak; bigserial ids are read back as bigint. */
const BY_ID: KeysetColumn[] = [{ name: 'id', type: 'int' }];

/**
 * A page by number (v3's page and per_page) of the rows of `table` that `where` keeps (a
 * `where ...` fragment), by id ascending, and how many rows it keeps in all. `table` comes from
 * the service's code, never from a client.
 */
export async function numberedPageById<T extends object>(
  sql: Db,
  table: string,
  where: Fragment,
  window: PageWindow,
): Promise<{ rows: T[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<T[]>`select * from ${sql(table)} ${where} order by id limit ${window.perPage} offset ${window.offset}`,
    countRows(sql, table, where),
  ]);
  return { rows: [...rows], total };
}

/** How many rows of `table` `where` keeps. */
export async function countRows(sql: Db, table: string, where: Fragment): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from ${sql(table)} ${where}`;
  return count;
}

/**
 * A keyset page (connections.ts) of the rows of `table` that `where` keeps, by id in `direction`,
 * and whether rows lie past the caller's cursor.
 */
export async function keysetPageById<T>(
  sql: Db,
  table: string,
  where: Fragment,
  direction: 'asc' | 'desc',
  window: KeysetWindow,
): Promise<{ rows: Array<T & { sortKey: string[] }>; beyond: boolean }> {
  const keyset = keysetSql(sql, BY_ID, direction, window);
  const [rows, beyond] = await Promise.all([
    sql<Array<T & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from ${sql(table)} ${where} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from ${sql(table)} ${where} ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder([...rows]), beyond };
}

/**
 * A list of the rows of `table` that a filter keeps (`where` makes its `where ...` fragment), by
 * id ascending: a page by number with the count of them all, the count alone, a keyset page.
 */
export function idOrderedList<T extends object, Filter>(table: string, where: (sql: Db, filter: Filter) => Fragment) {
  return {
    page: (sql: Db, filter: Filter, window: PageWindow) => numberedPageById<T>(sql, table, where(sql, filter), window),
    count: (sql: Db, filter: Filter) => countRows(sql, table, where(sql, filter)),
    keyset: (sql: Db, filter: Filter, window: KeysetWindow) =>
      keysetPageById<T>(sql, table, where(sql, filter), 'asc', window),
  };
}
