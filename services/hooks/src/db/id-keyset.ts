import { keysetSql, type KeysetColumn, type KeysetWindow, type Sql, type TransactionSql } from '@hub/common';

type Db = Sql | TransactionSql;
type Fragment = ReturnType<Sql>;

/**
 * The order of every list here: the id alone (unique, so it is its own tiebreak); deliveries' ids
 * are bigserial, which keysetSql reads back as bigint.
 */
const BY_ID: KeysetColumn[] = [{ name: 'id', type: 'int' }];

/**
 * A keyset page (common/connections.ts) of the rows of `table` that `where` keeps (a `where ...`
 * fragment), by id in `direction`, and whether rows lie past the caller's cursor. `table` comes from
 * this service's code, never from a client.
 */
export async function keysetPageById<T>(
  sql: Db,
  table: 'hooks' | 'deliveries',
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
