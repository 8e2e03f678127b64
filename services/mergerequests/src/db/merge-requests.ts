import {
  buryProject,
  keysetSql,
  removeLabelFrom,
  renameLabelIn,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

/** A row of mergerequests.merge_requests, camelCased. */
export interface MergeRequestRow {
  id: number;
  projectId: number;
  iid: number;
  sourceProjectId: number;
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'merged' | 'reopened';
  authorId: number;
  assigneeId: number | null;
  mergeCommitSha: string | null;
  /** Label names, sorted and distinct: labels of the project (kept by the notes service). */
  labels: string[];
  /** One of the project's milestones (kept by the notes service). */
  milestoneId: number | null;
  createdAt: Date;
  updatedAt: Date;
  mergedAt: Date | null;
  /** When an accept claimed it for a merge still running (or whose process died): null otherwise. */
  mergeLockedAt: Date | null;
}

type Db = Sql | TransactionSql;

/** The project's next iid; the row lock makes concurrent creates take turns. */
export async function nextIid(tx: TransactionSql, projectId: number): Promise<number> {
  const [row] = await tx<{ lastIid: number }[]>`
    insert into project_iids (project_id, last_iid) values (${projectId}, 1)
    on conflict (project_id) do update set last_iid = project_iids.last_iid + 1
    returning last_iid`;
  return row.lastIid;
}

export async function insertMergeRequest(
  tx: TransactionSql,
  values: Omit<
    MergeRequestRow,
    'id' | 'state' | 'mergeCommitSha' | 'createdAt' | 'updatedAt' | 'mergedAt' | 'mergeLockedAt'
  >,
): Promise<MergeRequestRow> {
  const [row] = await tx<MergeRequestRow[]>`insert into merge_requests ${tx(values as never)} returning *`;
  return row;
}

export async function findMergeRequest(
  sql: Db,
  projectId: number,
  id: number,
  lock = false,
): Promise<MergeRequestRow | undefined> {
  const [row] = await sql<MergeRequestRow[]>`
    select * from merge_requests where id = ${id} and project_id = ${projectId} ${lock ? sql`for update` : sql``}`;
  return row;
}

/** A merge request by its target project and its number there (iid), as people name it. */
export async function findMergeRequestByIid(
  sql: Db,
  projectId: number,
  iid: number,
): Promise<MergeRequestRow | undefined> {
  const [row] = await sql<
    MergeRequestRow[]
  >`select * from merge_requests where project_id = ${projectId} and iid = ${iid}`;
  return row;
}

export async function findMergeRequestById(sql: Db, id: number): Promise<MergeRequestRow | undefined> {
  const [row] = await sql<MergeRequestRow[]>`select * from merge_requests where id = ${id}`;
  return row;
}

/** Titles of the open merge requests (other than `exceptId`) from the same source branch into the same target branch. */
export async function openDuplicateTitles(
  sql: Db,
  mr: Pick<MergeRequestRow, 'projectId' | 'sourceProjectId' | 'sourceBranch' | 'targetBranch'>,
  exceptId: number | null,
): Promise<string[]> {
  const rows = await sql<{ title: string }[]>`
    select title from merge_requests
    where project_id = ${mr.projectId} and source_project_id = ${mr.sourceProjectId}
      and source_branch = ${mr.sourceBranch} and target_branch = ${mr.targetBranch}
      and state in ('opened', 'reopened') and id <> ${exceptId ?? 0}
    order by id`;
  return rows.map((r) => r.title);
}

export async function updateMergeRequest(
  tx: TransactionSql,
  id: number,
  changes: Partial<MergeRequestRow>,
): Promise<MergeRequestRow> {
  const [row] = await tx<MergeRequestRow[]>`
    update merge_requests set ${tx(changes as Record<string, unknown>)}, updated_at = now() where id = ${id} returning *`;
  return row;
}

/** How long a merge may run (the MergeBranch call's deadline). */
export const MERGE_TIMEOUT_MS = 5 * 60_000;
/** A claim older than this was left by a process that died mid-merge: it may be taken over. */
export const MERGE_CLAIM_STALE_S = (2 * MERGE_TIMEOUT_MS) / 1000;

/** Whether a merge holds the merge request now (a claim not yet stale): GitLab's locked state. */
export const isMerging = (mr: Pick<MergeRequestRow, 'mergeLockedAt'>, now = Date.now()) =>
  mr.mergeLockedAt !== null && now - mr.mergeLockedAt.getTime() < MERGE_CLAIM_STALE_S * 1000;

/**
 * Claims an open merge request for a merge: the claim's time when it was free (or its claim older
 * than `staleAfterSeconds`, left by a process that died mid-merge), null when another merge holds it.
 * The time is kept to the millisecond, so the claim reads back exactly as a Date and names itself.
 */
export async function claimForMerge(tx: TransactionSql, id: number, staleAfterSeconds: number): Promise<Date | null> {
  const [row] = await tx<{ mergeLockedAt: Date }[]>`
    update merge_requests set merge_locked_at = date_trunc('milliseconds', clock_timestamp())
    where id = ${id} and (merge_locked_at is null or merge_locked_at < clock_timestamp() - make_interval(secs => ${staleAfterSeconds}))
    returning merge_locked_at`;
  return row?.mergeLockedAt ?? null;
}

/** Records the merge a claim made; undefined when the claim was lost meanwhile (taken over as stale). */
export async function recordMerge(
  tx: TransactionSql,
  id: number,
  claim: Date,
  commitId: string,
): Promise<MergeRequestRow | undefined> {
  const [row] = await tx<MergeRequestRow[]>`
    update merge_requests set state = 'merged', merge_commit_sha = ${commitId}, merged_at = now(), merge_locked_at = null, updated_at = now()
    where id = ${id} and merge_locked_at = ${claim} returning *`;
  return row;
}

/** Gives a claim up (the merge failed): the merge request is open to the next accept again. */
export async function releaseMergeClaim(sql: Db, id: number, claim: Date): Promise<void> {
  await sql`update merge_requests set merge_locked_at = null where id = ${id} and merge_locked_at = ${claim}`;
}

export interface ListFilter {
  projectId: number;
  iid?: number | null;
  states: string[] | null;
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

/** Which merge requests a list holds, as SQL conditions. */
const listConditions = (sql: Db, filter: ListFilter) =>
  sql`where project_id = ${filter.projectId}
    ${filter.iid ? sql`and iid = ${filter.iid}` : sql``}
    ${filter.states ? sql`and state in ${sql(filter.states)}` : sql``}`;

/** A page by number (REST v3's page and per_page): the timestamp asked for, ties by id, both in the list's direction. */
export async function listMergeRequests(
  sql: Db,
  filter: ListFilter,
  window: PageWindow,
): Promise<{ rows: MergeRequestRow[]; total: number }> {
  const where = listConditions(sql, filter);
  const direction = filter.sort === 'asc' ? sql`asc` : sql`desc`;
  const [rows, total] = await Promise.all([
    sql<
      MergeRequestRow[]
    >`select * from merge_requests ${where} order by ${sql(filter.orderBy)} ${direction}, id ${direction}
      limit ${window.perPage} offset ${window.offset}`,
    countMergeRequests(sql, filter),
  ]);
  return { rows, total };
}

export async function countMergeRequests(sql: Db, filter: ListFilter): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from merge_requests ${listConditions(sql, filter)}`;
  return count;
}

// The order of pages by number: the timestamp, then the id (unique) to break ties, one direction.
const listOrderColumns = (filter: ListFilter): KeysetColumn[] => [
  { name: filter.orderBy, type: 'timestamptz' },
  { name: 'id', type: 'int' },
];

/** A keyset page of a merge request list (common/connections.ts), and whether rows lie past the caller's cursor. */
export async function listMergeRequestsKeyset(
  sql: Db,
  filter: ListFilter,
  window: KeysetWindow,
): Promise<{ rows: Array<MergeRequestRow & { sortKey: string[] }>; beyond: boolean }> {
  const where = listConditions(sql, filter);
  const keyset = keysetSql(sql, listOrderColumns(filter), filter.sort, window);
  const [rows, beyond] = await Promise.all([
    sql<Array<MergeRequestRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from merge_requests ${where} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from merge_requests ${where} ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

/** The ordering a merge request list's cursors are made for. */
export const mergeRequestOrdering = (filter: ListFilter) => `merge_requests:${filter.orderBy}:${filter.sort}`;

/** Once no write on the project is in flight, and for good (project-tombstones). */
export async function deleteProjectMergeRequests(sql: Sql, projectId: number): Promise<void> {
  await buryProject(sql, projectId, async (tx) => {
    await tx`delete from merge_requests where project_id = ${projectId}`;
    await tx`delete from project_iids where project_id = ${projectId}`;
  });
}

/** A project label's new name on every merge request of the project that has it. */
export const renameLabel = (sql: Db, projectId: number, from: string, to: string) =>
  renameLabelIn(sql, 'merge_requests', projectId, from, to);

/** A removed project label leaves every merge request of the project. */
export const removeLabel = (sql: Db, projectId: number, title: string) =>
  removeLabelFrom(sql, 'merge_requests', projectId, title);
