import type { PageWindow, Sql, TransactionSql } from '@hub/common';

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

export async function listSnippets(
  sql: Db,
  projectId: number,
  window: PageWindow,
): Promise<{ rows: SnippetRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    sql<
      SnippetRow[]
    >`select * from snippets where project_id = ${projectId} order by id desc limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from snippets where project_id = ${projectId}`,
  ]);
  return { rows, total: count };
}

export async function deleteProjectSnippets(sql: Db, projectId: number): Promise<void> {
  await sql`delete from snippets where project_id = ${projectId}`;
}
