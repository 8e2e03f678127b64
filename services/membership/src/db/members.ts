import { keysetSql, type KeysetWindow, type PageWindow, type Sql, type TransactionSql } from '@hub/common';

/** A row of membership.members, camelCased. */
export interface MemberRow {
  projectId: number;
  userId: number;
  accessLevel: number;
  notificationLevel: number;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

export async function findMember(sql: Db, projectId: number, userId: number): Promise<MemberRow | undefined> {
  const [row] = await sql<MemberRow[]>`select * from members where project_id = ${projectId} and user_id = ${userId}`;
  return row;
}

export async function findMembers(
  sql: Db,
  keys: readonly { projectId: number; userId: number }[],
): Promise<MemberRow[]> {
  if (keys.length === 0) return [];
  const projectIds = keys.map((k) => k.projectId);
  const userIds = keys.map((k) => k.userId);
  return sql<MemberRow[]>`
    select m.* from members m
    join unnest(${projectIds}::int[], ${userIds}::int[]) as k(project_id, user_id)
      on m.project_id = k.project_id and m.user_id = k.user_id`;
}

export async function memberUserIds(sql: Db, projectId: number): Promise<number[]> {
  const rows = await sql<{ userId: number }[]>`select user_id from members where project_id = ${projectId}`;
  return rows.map((r) => r.userId);
}

/** Which members a team list holds: the project's, narrowed to `userIds` when given (a search's matches). */
export interface MemberFilter {
  projectId: number;
  userIds: number[] | null;
}

const memberConditions = (sql: Db, { projectId, userIds }: MemberFilter) =>
  sql`where project_id = ${projectId} ${userIds ? sql`and user_id = any(${userIds}::int[])` : sql``}`;

/** A page by number (REST v3's page and per_page) of a project's team, in user id order. */
export async function listMembers(
  sql: Db,
  filter: MemberFilter,
  window: PageWindow,
): Promise<{ rows: MemberRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      MemberRow[]
    >`select * from members ${memberConditions(sql, filter)} order by user_id limit ${window.perPage} offset ${window.offset}`,
    countMembers(sql, filter),
  ]);
  return { rows, total };
}

export async function countMembers(sql: Db, filter: MemberFilter): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from members ${memberConditions(sql, filter)}`;
  return count;
}

/**
 * A keyset page of a project's team (common/connections.ts), and whether rows lie past the
 * caller's cursor. The order is v3's, by user id, which is unique within a team (the table's key
 * is the project and the user; members have no id of their own).
 */
export async function listMembersKeyset(
  sql: Db,
  filter: MemberFilter,
  window: KeysetWindow,
): Promise<{ rows: Array<MemberRow & { sortKey: string[] }>; beyond: boolean }> {
  const where = memberConditions(sql, filter);
  const keyset = keysetSql(sql, [{ name: 'user_id', type: 'int' }], 'asc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<MemberRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from members ${where} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from members ${where} ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

/** The ordering a team list's cursors are made for. */
export const MEMBER_ORDERING = 'project_members:user_id:asc';

/**
 * Inserts unless the user is already in the team or the project is deleted; returns the new row,
 * or undefined. The share lock on the project's facts orders the insert with a deletion: one
 * that commits first leaves nothing to insert into, one that waits removes the new row too.
 */
export async function insertMember(
  tx: TransactionSql,
  projectId: number,
  userId: number,
  accessLevel: number,
): Promise<MemberRow | undefined> {
  const [row] = await tx<MemberRow[]>`
    insert into members (project_id, user_id, access_level)
    select project_id, ${userId}, ${accessLevel} from project_facts where project_id = ${projectId} and not deleted for share
    on conflict (project_id, user_id) do nothing
    returning *`;
  return row;
}

export async function updateMemberLevel(
  tx: TransactionSql,
  projectId: number,
  userId: number,
  accessLevel: number,
): Promise<MemberRow | undefined> {
  const [row] = await tx<MemberRow[]>`
    update members set access_level = ${accessLevel}, updated_at = now()
    where project_id = ${projectId} and user_id = ${userId}
    returning *`;
  return row;
}

export async function deleteMember(
  tx: TransactionSql,
  projectId: number,
  userId: number,
): Promise<MemberRow | undefined> {
  const [row] = await tx<
    MemberRow[]
  >`delete from members where project_id = ${projectId} and user_id = ${userId} returning *`;
  return row;
}

/**
 * The live projects a user is in, as a project member or through a group, other than their own.
 * The user's groups are read first (an array the planner cannot mistake for a large join):
 * joined, Postgres scanned all of project_facts when the user owned most of it (10 ms at 100,000
 * projects, 0.1 ms this way).
 */
export async function memberProjectIds(sql: Db, userId: number): Promise<number[]> {
  const rows = await sql<{ projectId: number }[]>`
    select m.project_id from members m join project_facts f on f.project_id = m.project_id
    where m.user_id = ${userId} and not m.of_owner and not f.deleted
    union
    select f.project_id from project_facts f
    where f.namespace_id = any(array(select g.group_id from group_members g where g.user_id = ${userId}))
      and not f.deleted and f.owner_id is distinct from ${userId}`;
  return rows.map((r) => r.projectId);
}

export async function deleteUserMemberships(tx: TransactionSql, userId: number): Promise<MemberRow[]> {
  return tx<MemberRow[]>`delete from members where user_id = ${userId} returning *`;
}
