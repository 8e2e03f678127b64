import {
  keysetSql,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

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

/** Which milestones a list holds: a project's, of one state or both, or the one with an iid. */
export interface MilestoneFilter {
  projectId: number;
  state: 'active' | 'closed' | null;
  iid?: number | null;
}

function milestoneConditions(sql: Db, filter: MilestoneFilter) {
  return sql`where project_id = ${filter.projectId}
    ${filter.state ? sql`and state = ${filter.state}` : sql``}
    ${filter.iid ? sql`and iid = ${filter.iid}` : sql``}`;
}

// GitLab's Sortable default scope, newest first: a milestone takes its created_at (now()) and its
// id as it is inserted, so the id alone gives that order (milestones_project_idx).
const MILESTONE_ORDER: KeysetColumn[] = [{ name: 'id', type: 'int' }];

/** The ordering a milestone list's cursors are made for. */
export const MILESTONE_ORDERING = 'milestones:id:desc';

/** A page of a project's milestones by number (REST v3's page and per_page), newest first. */
export async function listMilestones(
  sql: Db,
  filter: MilestoneFilter,
  window: PageWindow,
): Promise<{ rows: MilestoneRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      MilestoneRow[]
    >`select ${columns(sql)} from milestones ${milestoneConditions(sql, filter)} order by id desc limit ${window.perPage} offset ${window.offset}`,
    countMilestones(sql, filter),
  ]);
  return { rows, total };
}

export async function countMilestones(sql: Db, filter: MilestoneFilter): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from milestones ${milestoneConditions(sql, filter)}`;
  return count;
}

/** A keyset page of a project's milestones (common/connections.ts), and whether rows lie past the caller's cursor. */
export async function listMilestonesKeyset(
  sql: Db,
  filter: MilestoneFilter,
  window: KeysetWindow,
): Promise<{ rows: Array<MilestoneRow & { sortKey: string[] }>; beyond: boolean }> {
  const where = milestoneConditions(sql, filter);
  const keyset = keysetSql(sql, MILESTONE_ORDER, 'desc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<MilestoneRow & { sortKey: string[] }>>`
      select ${columns(sql)}, ${keyset.sortKey} from milestones ${where} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from milestones ${where} ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

export async function deleteProjectMilestones(sql: Db, projectId: number): Promise<void> {
  await sql`delete from milestones where project_id = ${projectId}`;
  await sql`delete from milestone_iids where project_id = ${projectId}`;
}
