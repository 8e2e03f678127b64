import {
  keysetSql,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

/** A row of notes.snippets, camelCased. */
export interface SnippetRow {
  id: number;
  projectId: number;
  title: string;
  fileName: string;
  content: string;
  visibilityLevel: number;
  authorId: number;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

export async function findSnippetsById(sql: Db, ids: readonly number[]): Promise<SnippetRow[]> {
  return sql<SnippetRow[]>`select * from snippets where id = any(${ids as number[]}::int[])`;
}

export async function insertSnippet(
  tx: TransactionSql,
  values: Pick<SnippetRow, 'projectId' | 'title' | 'fileName' | 'content' | 'visibilityLevel' | 'authorId'>,
): Promise<SnippetRow> {
  const [row] = await tx<SnippetRow[]>`insert into snippets ${tx(values as never)} returning *`;
  return row;
}

export async function findSnippet(sql: Db, projectId: number, id: number): Promise<SnippetRow | undefined> {
  const [row] = await sql<SnippetRow[]>`select * from snippets where id = ${id} and project_id = ${projectId}`;
  return row;
}

/** The snippet as changed; undefined when it is gone. */
export async function updateSnippet(
  tx: TransactionSql,
  id: number,
  changes: Partial<SnippetRow>,
): Promise<SnippetRow | undefined> {
  const [row] = await tx<
    SnippetRow[]
  >`update snippets set ${tx(changes as Record<string, unknown>)}, updated_at = now() where id = ${id} returning *`;
  return row;
}

export async function deleteSnippet(tx: TransactionSql, id: number): Promise<SnippetRow | undefined> {
  await tx`delete from notes where noteable_type = 'Snippet' and noteable_id = ${id}`;
  const [row] = await tx<SnippetRow[]>`delete from snippets where id = ${id} returning *`;
  return row;
}

// Newest first: a snippet takes its created_at (now()) and its id as it is inserted, so the id
// alone gives that order, and snippets_project_idx serves it.
const SNIPPET_ORDER: KeysetColumn[] = [{ name: 'id', type: 'int' }];

/** The ordering a snippet list's cursors are made for. */
export const SNIPPET_ORDERING = 'snippets:id:desc';

/** A page of a project's snippets by number (REST v3's page and per_page), newest first. */
export async function listSnippets(
  sql: Db,
  projectId: number,
  window: PageWindow,
): Promise<{ rows: SnippetRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      SnippetRow[]
    >`select * from snippets where project_id = ${projectId} order by id desc limit ${window.perPage} offset ${window.offset}`,
    countSnippets(sql, projectId),
  ]);
  return { rows, total };
}

export async function countSnippets(sql: Db, projectId: number): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from snippets where project_id = ${projectId}`;
  return count;
}

/** A keyset page of a project's snippets (common/connections.ts), and whether rows lie past the caller's cursor. */
export async function listSnippetsKeyset(
  sql: Db,
  projectId: number,
  window: KeysetWindow,
): Promise<{ rows: Array<SnippetRow & { sortKey: string[] }>; beyond: boolean }> {
  const keyset = keysetSql(sql, SNIPPET_ORDER, 'desc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<SnippetRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from snippets where project_id = ${projectId} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from snippets where project_id = ${projectId} ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

export async function deleteProjectSnippets(sql: Db, projectId: number): Promise<void> {
  await sql`delete from snippets where project_id = ${projectId}`;
}
