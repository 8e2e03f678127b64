import type { PageWindow, Sql, TransactionSql } from '@hub/common';

/** A row of notes.issues, camelCased. */
export interface IssueRow {
  id: number;
  projectId: number;
  iid: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'reopened';
  authorId: number;
  assigneeId: number | null;
  labels: string[];
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

export async function insertIssue(tx: TransactionSql, values: Pick<IssueRow, 'projectId' | 'title' | 'description' | 'authorId' | 'assigneeId' | 'labels'>): Promise<IssueRow> {
  const [{ lastIid }] = await tx<{ lastIid: number }[]>`
    insert into issue_iids (project_id, last_iid) values (${values.projectId}, 1)
    on conflict (project_id) do update set last_iid = issue_iids.last_iid + 1
    returning last_iid`;
  const [row] = await tx<IssueRow[]>`insert into issues ${tx({ ...values, iid: lastIid } as never)} returning *`;
  return row;
}

export async function findIssue(sql: Db, projectId: number, id: number): Promise<IssueRow | undefined> {
  const [row] = await sql<IssueRow[]>`select * from issues where id = ${id} and project_id = ${projectId}`;
  return row;
}

export async function updateIssue(tx: TransactionSql, id: number, changes: Partial<IssueRow>): Promise<IssueRow> {
  const [row] = await tx<IssueRow[]>`update issues set ${tx(changes as Record<string, unknown>)}, updated_at = now() where id = ${id} returning *`;
  return row;
}

export async function listIssues(
  sql: Db,
  filter: { projectId: number; states: string[] | null; labels: string[]; iid?: number | null },
  window: PageWindow,
): Promise<{ rows: IssueRow[]; total: number }> {
  const where = sql`where project_id = ${filter.projectId}
    ${filter.states ? sql`and state in ${sql(filter.states)}` : sql``}
    ${filter.labels.length ? sql`and labels && ${filter.labels}::text[]` : sql``}
    ${filter.iid ? sql`and iid = ${filter.iid}` : sql``}`;
  const [rows, [{ count }]] = await Promise.all([
    sql<IssueRow[]>`select * from issues ${where} order by id desc limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from issues ${where}`,
  ]);
  return { rows, total: count };
}

export async function deleteProjectIssues(sql: Sql, projectId: number): Promise<void> {
  await sql`delete from issues where project_id = ${projectId}`;
  await sql`delete from issue_iids where project_id = ${projectId}`;
}
