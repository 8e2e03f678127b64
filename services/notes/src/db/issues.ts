import {
  keysetSql,
  removeLabelFrom,
  renameLabelIn,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

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
  /** Label names, sorted and distinct; each is one of the project's labels. */
  labels: string[];
  milestoneId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

export async function insertIssue(
  tx: TransactionSql,
  values: Pick<IssueRow, 'projectId' | 'title' | 'description' | 'authorId' | 'assigneeId' | 'labels' | 'milestoneId'>,
): Promise<IssueRow> {
  const [{ lastIid }] = await tx<{ lastIid: number }[]>`
    insert into issue_iids (project_id, last_iid) values (${values.projectId}, 1)
    on conflict (project_id) do update set last_iid = issue_iids.last_iid + 1
    returning last_iid`;
  const [row] = await tx<IssueRow[]>`insert into issues ${tx({ ...values, iid: lastIid } as never)} returning *`;
  return row;
}

/** `lock`: for a change, so concurrent changes of the issue take turns. */
export async function findIssue(sql: Db, projectId: number, id: number, lock = false): Promise<IssueRow | undefined> {
  const [row] = await sql<
    IssueRow[]
  >`select * from issues where id = ${id} and project_id = ${projectId} ${lock ? sql`for update` : sql``}`;
  return row;
}

/** Issues by their ids alone, whatever their projects (the caller checks each project's access). */
export async function findIssuesById(sql: Db, ids: readonly number[]): Promise<IssueRow[]> {
  return sql<IssueRow[]>`select * from issues where id = any(${ids as number[]}::int[])`;
}

/** Issues by their projects and their numbers there (iids), as people name them. */
export async function findIssuesByIid(
  sql: Db,
  keys: readonly { projectId: number; iid: number }[],
): Promise<IssueRow[]> {
  return sql<IssueRow[]>`
    select * from issues where (project_id, iid) in (
      select * from unnest(${keys.map((k) => k.projectId)}::int[], ${keys.map((k) => k.iid)}::int[]))`;
}

export async function updateIssue(tx: TransactionSql, id: number, changes: Partial<IssueRow>): Promise<IssueRow> {
  const [row] = await tx<
    IssueRow[]
  >`update issues set ${tx(changes as Record<string, unknown>)}, updated_at = now() where id = ${id} returning *`;
  return row;
}

export interface IssueFilter {
  projectId?: number;
  /** GET /issues: the user's own (GitLab 7.14's current_user.issues, every project). */
  authorId?: number;
  milestoneId?: number;
  /** GitLab 7.14's `milestone` filter: the title of one of the project's milestones. */
  milestoneTitle?: string | null;
  states: string[] | null;
  /** Any of these (GitLab's labels.title IN). */
  labels: string[];
  iid?: number | null;
  orderBy?: 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
}

/** Which issues a list holds, as SQL conditions. */
function issueConditions(sql: Db, filter: IssueFilter) {
  return sql`where true
    ${filter.projectId !== undefined ? sql`and project_id = ${filter.projectId}` : sql``}
    ${filter.authorId !== undefined ? sql`and author_id = ${filter.authorId}` : sql``}
    ${filter.milestoneId !== undefined ? sql`and milestone_id = ${filter.milestoneId}` : sql``}
    ${filter.milestoneTitle != null ? sql`and milestone_id in (select m.id from milestones m where m.project_id = issues.project_id and m.title = ${filter.milestoneTitle})` : sql``}
    ${filter.states ? sql`and state in ${sql(filter.states)}` : sql``}
    ${filter.labels.length ? sql`and labels && ${filter.labels}::text[]` : sql``}
    ${filter.iid ? sql`and iid = ${filter.iid}` : sql``}`;
}

// GitLab's Sortable default: created_at, newest first; the id breaks ties. Issues take their
// created_at (now()) and their id as they are inserted, so the id alone gives that order, and
// the (project_id | author_id | milestone_id, id desc) indexes serve it.
const issueOrderColumns = (filter: IssueFilter): KeysetColumn[] =>
  filter.orderBy === 'updated_at'
    ? [
        { name: 'updated_at', type: 'timestamptz' },
        { name: 'id', type: 'int' },
      ]
    : [{ name: 'id', type: 'int' }];

export async function listIssues(
  sql: Db,
  filter: IssueFilter,
  window: PageWindow,
): Promise<{ rows: IssueRow[]; total: number }> {
  const where = issueConditions(sql, filter);
  const direction = filter.sort === 'asc' ? sql`asc` : sql`desc`;
  const order = filter.orderBy === 'updated_at' ? sql`updated_at ${direction}, id ${direction}` : sql`id ${direction}`;
  const [rows, total] = await Promise.all([
    sql<IssueRow[]>`select * from issues ${where} order by ${order} limit ${window.perPage} offset ${window.offset}`,
    countIssues(sql, filter),
  ]);
  return { rows, total };
}

export async function countIssues(sql: Db, filter: IssueFilter): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from issues ${issueConditions(sql, filter)}`;
  return count;
}

/** A keyset page of an issue list (common/connections.ts), and whether rows lie past the caller's cursor. */
export async function listIssuesKeyset(
  sql: Db,
  filter: IssueFilter,
  window: KeysetWindow,
): Promise<{ rows: Array<IssueRow & { sortKey: string[] }>; beyond: boolean }> {
  const where = issueConditions(sql, filter);
  const keyset = keysetSql(sql, issueOrderColumns(filter), filter.sort ?? 'desc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<IssueRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from issues ${where} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from issues ${where} ${keyset.probe}) as found`.then(([row]) => row.found as boolean)
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

/** The ordering an issue list's cursors are made for. */
export const issueOrdering = (filter: IssueFilter) =>
  `issues:${filter.orderBy ?? 'created_at'}:${filter.sort ?? 'desc'}`;

/** A label's new name on every issue of the project that has it. */
export const renameIssueLabel = (tx: TransactionSql, projectId: number, from: string, to: string) =>
  renameLabelIn(tx, 'issues', projectId, from, to);

/** A removed label leaves every issue of the project. */
export const removeIssueLabel = (tx: TransactionSql, projectId: number, title: string) =>
  removeLabelFrom(tx, 'issues', projectId, title);

export async function deleteProjectIssues(sql: Db, projectId: number): Promise<void> {
  await sql`delete from issues where project_id = ${projectId}`;
  await sql`delete from issue_iids where project_id = ${projectId}`;
}
