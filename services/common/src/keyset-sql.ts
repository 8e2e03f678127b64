import type { Sql, TransactionSql } from './db';
import type { CursorKey, KeysetWindow } from './connections';

type Db = Sql | TransactionSql;
type Fragment = ReturnType<Sql>;

/** A column of a list's order: its SQL name and its Postgres type (how a cursor's text is read back). */
export interface KeysetColumn {
  name: string;
  type: 'int' | 'text' | 'timestamptz';
}

/**
 * The SQL of a keyset page (common/connections.ts) over `columns`, all in `direction`; the last
 * column must be unique (the id). Column names come from the caller's closed sets, never from a
 * client's text.
 */
export function keysetSql(db: Db, columns: readonly KeysetColumn[], direction: 'asc' | 'desc', window: KeysetWindow) {
  const names = columnList(db, columns);
  // Sent as text and cast by Postgres: a parameter typed timestamptz would go through the
  // client's Date serializer, which keeps milliseconds and drops the microseconds orders depend on.
  const cast = (value: string, type: KeysetColumn['type']): Fragment =>
    // Integers read back as bigint: ids of bigserial columns pass 2^31, and Postgres compares an
    // int column with a bigint in its index's own operator family.
    (type === 'int'
      ? db`${value}::text::bigint`
      : type === 'timestamptz'
        ? db`${value}::text::timestamptz`
        : db`${value}::text`) as Fragment;
  const values = (key: CursorKey) =>
    commaList(
      db,
      columns.map((column, i) => cast(key[i] ?? '', column.type)),
    );
  /** Rows past `key` in the list's order (`after`) or before it; the key's own row too when `inclusive`. */
  const beside = (key: CursorKey, side: 'after' | 'before', inclusive: boolean): Fragment => {
    const later = (side === 'after') === (direction === 'asc');
    const operator = later ? (inclusive ? db`>=` : db`>`) : inclusive ? db`<=` : db`<`;
    return db`and (${names}) ${operator} (${values(key)})` as Fragment;
  };
  const reading = window.from === 'start' ? direction : direction === 'asc' ? 'desc' : 'asc';
  const cameFrom = window.from === 'start' ? window.after : window.before;
  return {
    /** The window's bounds, as `and ...` conditions. */
    bounds: db`${window.after ? beside(window.after, 'after', false) : db``} ${
      window.before ? beside(window.before, 'before', false) : db``
    }` as Fragment,
    /** `order by`, the way the window is read (its rows come back reversed when it is read from the end). */
    order: (table?: string): Fragment =>
      db`order by ${commaList(
        db,
        columns.map(
          (column) =>
            db`${db(table ? `${table}.${column.name}` : column.name)} ${reading === 'asc' ? db`asc` : db`desc`}` as Fragment,
        ),
      )}` as Fragment,
    limit: window.limit + 1,
    /** The row's place, as `sort_key` (text[]): what its cursor holds. */
    sortKey: db`array[${commaList(
      db,
      columns.map((column) => db`${db(column.name)}::text` as Fragment),
    )}] as sort_key` as Fragment,
    /** Conditions for rows on the far side of the cursor the caller came from (null without one). */
    probe: cameFrom ? beside(cameFrom, window.from === 'start' ? 'before' : 'after', true) : null,
    /** The rows read, put in the list's order. */
    inOrder: <T>(rows: T[]): T[] => (window.from === 'start' ? rows : [...rows].reverse()),
  };
}

/** `a, b, c` of fragments. */
const commaList = (db: Db, parts: Fragment[]): Fragment => parts.reduce((a, b) => db`${a}, ${b}` as Fragment);

const columnList = (db: Db, columns: readonly KeysetColumn[]) =>
  commaList(
    db,
    columns.map((column) => db`${db(column.name)}` as Fragment),
  );
