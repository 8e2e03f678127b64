import type { PageWindow, Sql, TransactionSql } from '@hub/common';

/** A row of notes.milestones, camelCased; the due date as GitLab showed it (YYYY-MM-DD). */
export interface MilestoneRow {
  id: number;
  projectId: number;
  iid: number;
  title: string;
  description: string | null;
  dueDate: string | null;
  state: 'active' | 'closed';
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

// A date column as text, so no time zone ever moves it a day.
const columns = (sql: Db) =>
  sql`id, project_id, iid, title, description, to_char(due_date, 'YYYY-MM-DD') as due_date, state, created_at, updated_at`;

export async function insertMilestone(
  tx: TransactionSql,
  values: Pick<MilestoneRow, 'projectId' | 'title' | 'description' | 'dueDate'>,
): Promise<MilestoneRow> {
  const [{ lastIid }] = await tx<{ lastIid: number }[]>`
    insert into milestone_iids (project_id, last_iid) values (${values.projectId}, 1)
    on conflict (project_id) do update set last_iid = milestone_iids.last_iid + 1
    returning last_iid`;
  const [row] = await tx<
    MilestoneRow[]
  >`insert into milestones ${tx({ ...values, iid: lastIid } as never)} returning ${columns(tx)}`;
  return row;
}

export async function findMilestone(sql: Db, projectId: number, id: number): Promise<MilestoneRow | undefined> {
  const [row] = await sql<
    MilestoneRow[]
  >`select ${columns(sql)} from milestones where id = ${id} and project_id = ${projectId}`;
  return row;
}

export async function findMilestonesById(sql: Db, ids: readonly number[]): Promise<MilestoneRow[]> {
  return sql<MilestoneRow[]>`select ${columns(sql)} from milestones where id = any(${ids as number[]}::int[])`;
}

export async function updateMilestone(
  tx: TransactionSql,
  id: number,
  changes: Partial<Pick<MilestoneRow, 'title' | 'description' | 'dueDate' | 'state'>>,
): Promise<MilestoneRow> {
  const [row] = await tx<
    MilestoneRow[]
  >`update milestones set ${tx(changes as Record<string, unknown>)}, updated_at = now() where id = ${id} returning ${columns(tx)}`;
  return row;
}

/** GitLab's Sortable default scope: newest first. */
export async function listMilestones(
  sql: Db,
  filter: { projectId: number; state: 'active' | 'closed' | null; iid?: number | null },
  window: PageWindow,
): Promise<{ rows: MilestoneRow[]; total: number }> {
  const where = sql`where project_id = ${filter.projectId}
    ${filter.state ? sql`and state = ${filter.state}` : sql``}
    ${filter.iid ? sql`and iid = ${filter.iid}` : sql``}`;
  const [rows, [{ count }]] = await Promise.all([
    // Newest first: created_at is now() at insert, so the id gives the order (milestones_project_idx).
    sql<
      MilestoneRow[]
    >`select ${columns(sql)} from milestones ${where} order by id desc limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from milestones ${where}`,
  ]);
  return { rows, total: count };
}

export async function deleteProjectMilestones(sql: Db, projectId: number): Promise<void> {
  await sql`delete from milestones where project_id = ${projectId}`;
  await sql`delete from milestone_iids where project_id = ${projectId}`;
}
