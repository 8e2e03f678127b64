import type { PageWindow, Sql, TransactionSql } from '@hub/common';

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

/** A page of a project's team in user id order; `userIds` narrows it (a search's matches). */
export async function listMembers(
  sql: Db,
  projectId: number,
  userIds: number[] | null,
  window: PageWindow,
): Promise<{ rows: MemberRow[]; total: number }> {
  const where = sql`where project_id = ${projectId} ${userIds ? sql`and user_id = any(${userIds}::int[])` : sql``}`;
  const [rows, [{ count }]] = await Promise.all([
    sql<MemberRow[]>`select * from members ${where} order by user_id limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from members ${where}`,
  ]);
  return { rows, total: count };
}

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
