import {
  keysetSql,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

/** A row of notes.labels, camelCased; GitLab's Label (title is what v3 calls name). */
export interface LabelRow {
  id: number;
  projectId: number;
  title: string;
  color: string;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

export async function findLabelsById(sql: Db, ids: readonly number[]): Promise<LabelRow[]> {
  return sql<LabelRow[]>`select * from labels where id = any(${ids as number[]}::int[])`;
}

/** GitLab's Label default_scope: by title. "C" order, so it matches the names' order on issues (code units). */
export async function listLabels(
  sql: Db,
  projectId: number,
  window: PageWindow,
): Promise<{ rows: LabelRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      LabelRow[]
    >`select * from labels where project_id = ${projectId} order by title collate "C", id limit ${window.perPage} offset ${window.offset}`,
    countLabels(sql, projectId),
  ]);
  return { rows, total };
}

export async function countLabels(sql: Db, projectId: number): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from labels where project_id = ${projectId}`;
  return count;
}

// By name in "C" order, as listLabels (titles are unique per project; the id is the keyset's last
// column all the same).
const LABEL_ORDER: KeysetColumn[] = [
  { name: 'title', type: 'text' },
  { name: 'id', type: 'int' },
];

/** The ordering a label list's cursors are made for. */
export const LABEL_ORDERING = 'labels:name:asc';

/** A keyset page of a project's labels (common/connections.ts), and whether rows lie past the caller's cursor. */
export async function listLabelsKeyset(
  sql: Db,
  projectId: number,
  window: KeysetWindow,
): Promise<{ rows: Array<LabelRow & { sortKey: string[] }>; beyond: boolean }> {
  const keyset = keysetSql(sql, LABEL_ORDER, 'asc', window);
  // The title in "C" collation: the keyset's order and its comparisons with a cursor's title take
  // the column's collation, whatever the database's default is.
  const labels = sql`(
    select id, project_id, title collate "C" as title, color, created_at, updated_at from labels
    where project_id = ${projectId}
  ) as labels where true`;
  const [rows, beyond] = await Promise.all([
    sql<Array<LabelRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from ${labels} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from ${labels} ${keyset.probe}) as found`.then(([row]) => row.found as boolean)
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

export async function findLabel(
  sql: Db,
  projectId: number,
  title: string,
  lock = false,
): Promise<LabelRow | undefined> {
  const [row] = await sql<
    LabelRow[]
  >`select * from labels where project_id = ${projectId} and title = ${title} ${lock ? sql`for update` : sql``}`;
  return row;
}

/** Null when a label of that title appeared meanwhile (the unique key). */
export async function insertLabel(
  tx: Db,
  values: Pick<LabelRow, 'projectId' | 'title' | 'color'>,
): Promise<LabelRow | null> {
  const [row] = await tx<
    LabelRow[]
  >`insert into labels ${tx(values as never)} on conflict (project_id, title) do nothing returning *`;
  return row ?? null;
}

/** The labels of these titles the project lacks, made in `color` (GitLab's find_or_create_by). */
export async function ensureLabels(tx: Db, projectId: number, titles: readonly string[], color: string): Promise<void> {
  if (titles.length === 0) return;
  await tx`
    insert into labels (project_id, title, color)
    select ${projectId}, t, ${color} from unnest(${titles as string[]}::text[]) as t
    on conflict (project_id, title) do nothing`;
}

export async function updateLabel(
  tx: TransactionSql,
  id: number,
  changes: Partial<Pick<LabelRow, 'title' | 'color'>>,
): Promise<LabelRow | undefined> {
  const [row] = await tx<
    LabelRow[]
  >`update labels set ${tx(changes as Record<string, unknown>)}, updated_at = now() where id = ${id} returning *`;
  return row;
}

export async function deleteLabel(tx: TransactionSql, id: number): Promise<void> {
  await tx`delete from labels where id = ${id}`;
}

export async function deleteProjectLabels(sql: Db, projectId: number): Promise<void> {
  await sql`delete from labels where project_id = ${projectId}`;
}
