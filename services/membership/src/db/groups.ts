import {
  AccessLevel,
  keysetSql,
  Visibility,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

type Db = Sql | TransactionSql;

export interface GroupRow {
  groupId: number;
  name: string;
  path: string;
  deleted: boolean;
}

export interface GroupMemberRow {
  groupId: number;
  userId: number;
  accessLevel: number;
  notificationLevel: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Stores what identity says about a group. A deleted group stays a tombstone and loses its
 * members; a group once deleted is never revived by a late message. The first Owner joins at
 * creation (GitLab's `group.add_owner(current_user)`), idempotently. Returns the live group, or
 * null, and the Owner's membership when this call made it.
 */
export async function applyGroup(
  tx: TransactionSql,
  group: { groupId: number; name: string; path: string; deleted: boolean; ownerId: number | null },
): Promise<{ group: GroupRow | null; ownerAdded: GroupMemberRow | undefined }> {
  const [row] = await tx<GroupRow[]>`
    insert into groups (group_id, name, path, deleted) values (${group.groupId}, ${group.name}, ${group.path}, ${group.deleted})
    on conflict (group_id) do update set name = excluded.name, path = excluded.path,
      deleted = groups.deleted or excluded.deleted, updated_at = now()
    returning group_id, name, path, deleted`;
  if (row.deleted) {
    await tx`delete from group_members where group_id = ${group.groupId}`;
    return { group: null, ownerAdded: undefined };
  }
  const ownerAdded =
    group.ownerId === null ? undefined : await insertGroupMember(tx, group.groupId, group.ownerId, AccessLevel.OWNER);
  return { group: row, ownerAdded };
}

export async function findGroup(sql: Db, groupId: number): Promise<GroupRow | undefined> {
  const [row] = await sql<
    GroupRow[]
  >`select group_id, name, path, deleted from groups where group_id = ${groupId} and not deleted`;
  return row;
}

/**
 * Per group, the user's level and whether the user may see the group: GitLab 7.14's read_group,
 * for members and for anyone who can see one of the group's projects (public ones to everybody,
 * internal ones to signed-in users). Admins are decided by the caller.
 */
export async function groupAccess(
  sql: Db,
  userId: number | null,
  groupIds: readonly number[],
): Promise<Map<number, { level: number | null; readable: boolean }>> {
  if (groupIds.length === 0) return new Map();
  const openFrom = userId === null ? Visibility.PUBLIC : Visibility.INTERNAL;
  const rows = await sql<{ groupId: number; level: number | null; seesProject: boolean }[]>`
    select g.group_id, m.access_level as level,
      exists (
        select 1 from project_facts f
        left join members pm on pm.project_id = f.project_id and pm.user_id = ${userId ?? 0}
        where f.namespace_id = g.group_id and not f.deleted
          and (f.visibility_level >= ${openFrom} or pm.user_id is not null)
      ) as sees_project
    from groups g
    left join group_members m on m.group_id = g.group_id and m.user_id = ${userId ?? 0}
    where g.group_id in ${sql(groupIds as number[])} and not g.deleted`;
  return new Map(rows.map((r) => [r.groupId, { level: r.level, readable: r.level !== null || r.seesProject }]));
}

export async function memberGroupIds(sql: Db, userId: number): Promise<number[]> {
  const rows = await sql<{ groupId: number }[]>`
    select m.group_id from group_members m join groups g on g.group_id = m.group_id
    where m.user_id = ${userId} and not g.deleted order by m.group_id`;
  return rows.map((r) => r.groupId);
}

export async function findGroupMember(sql: Db, groupId: number, userId: number): Promise<GroupMemberRow | undefined> {
  const [row] = await sql<
    GroupMemberRow[]
  >`select * from group_members where group_id = ${groupId} and user_id = ${userId}`;
  return row;
}

/** A page by number (REST v3's page and per_page) of a group's members, in user id order. */
export async function listGroupMembers(
  sql: Db,
  groupId: number,
  window: PageWindow,
): Promise<{ rows: GroupMemberRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      GroupMemberRow[]
    >`select * from group_members where group_id = ${groupId} order by user_id limit ${window.perPage} offset ${window.offset}`,
    countGroupMembers(sql, groupId),
  ]);
  return { rows, total };
}

export async function countGroupMembers(sql: Db, groupId: number): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from group_members where group_id = ${groupId}`;
  return count;
}

/**
 * A keyset page of a group's members (common/connections.ts), and whether rows lie past the
 * caller's cursor. The order is v3's, by user id, which is unique within a group (the table's key
 * is the group and the user; members have no id of their own).
 */
export async function listGroupMembersKeyset(
  sql: Db,
  groupId: number,
  window: KeysetWindow,
): Promise<{ rows: Array<GroupMemberRow & { sortKey: string[] }>; beyond: boolean }> {
  const where = sql`where group_id = ${groupId}`;
  const keyset = keysetSql(sql, [{ name: 'user_id', type: 'int' }], 'asc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<GroupMemberRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from group_members ${where} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from group_members ${where} ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

/** The ordering a group member list's cursors are made for. */
export const GROUP_MEMBER_ORDERING = 'group_members:user_id:asc';

/** Inserts unless the user is already a member; returns the new row, or undefined. */
export async function insertGroupMember(
  tx: TransactionSql,
  groupId: number,
  userId: number,
  accessLevel: number,
): Promise<GroupMemberRow | undefined> {
  const [row] = await tx<GroupMemberRow[]>`
    insert into group_members (group_id, user_id, access_level) values (${groupId}, ${userId}, ${accessLevel})
    on conflict (group_id, user_id) do nothing
    returning *`;
  return row;
}

export async function updateGroupMemberLevel(
  tx: TransactionSql,
  groupId: number,
  userId: number,
  accessLevel: number,
): Promise<GroupMemberRow | undefined> {
  const [row] = await tx<GroupMemberRow[]>`
    update group_members set access_level = ${accessLevel}, updated_at = now()
    where group_id = ${groupId} and user_id = ${userId}
    returning *`;
  return row;
}

export async function deleteGroupMember(
  tx: TransactionSql,
  groupId: number,
  userId: number,
): Promise<GroupMemberRow | undefined> {
  const [row] = await tx<
    GroupMemberRow[]
  >`delete from group_members where group_id = ${groupId} and user_id = ${userId} returning *`;
  return row;
}

export async function deleteUserGroupMemberships(tx: TransactionSql, userId: number): Promise<void> {
  await tx`delete from group_members where user_id = ${userId}`;
}
