import {
  AccessLevel,
  conflict,
  DomainError,
  ErrorCode,
  forbidden,
  groupForbidden,
  membershipEvents,
  notFound,
  recordNotFound,
  unprocessable,
  usersLookup,
  type InternalClient,
  type Principal,
  type Sql,
  type TransactionSql,
  type UserSummary,
} from '@hub/common';
import * as groups from './db/groups';

/** Every level a group member may have: GitLab's options_with_owner. */
const GROUP_ACCESS_LEVELS: readonly number[] = [
  AccessLevel.GUEST,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MASTER,
  AccessLevel.OWNER,
];

/** Group members and the group access answers built on them (GitLab 7.14's group_members.rb and group_abilities). */
export function createGroupsService(deps: { sql: Sql; identity: InternalClient }) {
  const { sql } = deps;

  async function lookupUser(userId: number): Promise<UserSummary | undefined> {
    return (await deps.identity.call(usersLookup, { ids: [userId] })).users[0];
  }

  async function accessOf(principal: Principal, groupIds: readonly number[]) {
    const found = await groups.groupAccess(sql, principal.userId, groupIds);
    return groupIds.map((groupId) => {
      const access = found.get(groupId);
      if (!access) return { groupId, level: null, readable: false, exists: false };
      return { groupId, level: access.level, readable: principal.isAdmin || access.readable, exists: true };
    });
  }

  /**
   * GitLab's find_group: 404 for a group that does not exist, 403 naming the user and the group
   * for one the user may not see (7.14 answered so; groups are not hidden like private projects).
   */
  async function readableGroup(principal: Principal, groupId: number) {
    const group = await groups.findGroup(sql, groupId);
    if (!group) throw recordNotFound();
    const [access] = await accessOf(principal, [groupId]);
    if (!access.readable) throw groupForbidden(principal.username, group.name);
    return { group, level: access.level };
  }

  /** GitLab's admin_group: the group's Owners and admins. */
  async function administeredGroup(principal: Principal, groupId: number) {
    const found = await readableGroup(principal, groupId);
    if (!principal.isAdmin && found.level !== AccessLevel.OWNER) throw forbidden();
    return found.group;
  }

  const event = (
    tx: TransactionSql,
    type: Extract<keyof typeof membershipEvents.schemas, `group_member.${string}`>,
    principal: Principal,
    group: groups.GroupRow,
    member: groups.GroupMemberRow,
    user: UserSummary | undefined,
  ) =>
    membershipEvents.record(tx, type, {
      group_id: group.groupId,
      group_name: group.name,
      group_path: group.path,
      user_id: member.userId,
      user_username: user?.username ?? null,
      user_name: user?.name ?? null,
      user_email: user?.email ?? null,
      access_level: member.accessLevel,
      actor_id: principal.userId,
      actor_username: principal.username,
    });

  return {
    accessOf,
    readableGroup,

    /** Identity's group facts, applied in one transaction; the first Owner joins with a group_member.added event. */
    async applyGroup(group: { groupId: number; name: string; path: string; deleted: boolean; ownerId: number | null }) {
      const owner = group.ownerId !== null && !group.deleted ? await lookupUser(group.ownerId) : undefined;
      return sql.begin(async (tx) => {
        const applied = await groups.applyGroup(tx, group);
        if (applied.group && applied.ownerAdded) {
          const creator: Principal = {
            userId: applied.ownerAdded.userId,
            username: owner?.username ?? null,
            isAdmin: false,
            impersonatorId: null,
          };
          await event(tx, 'group_member.added', creator, applied.group, applied.ownerAdded, owner);
        }
        return applied.group !== null;
      });
    },

    /** Whether the viewer may list the group's members: GitLab's find_group (404, 403), nothing otherwise. */
    async authorizeMembers(principal: Principal, groupId: number): Promise<void> {
      await readableGroup(principal, groupId);
    },

    async findMember(principal: Principal, groupId: number, userId: number) {
      await readableGroup(principal, groupId);
      return (await groups.findGroupMember(sql, groupId, userId)) ?? null;
    },

    /** 7.14 refused an existing member with 409 "Already exists" (unlike the project team's idempotent add). */
    async addMember(principal: Principal, groupId: number, userId: number, accessLevel: number) {
      const group = await administeredGroup(principal, groupId);
      if (!GROUP_ACCESS_LEVELS.includes(accessLevel)) throw unprocessable('Wrong access level');
      if (await groups.findGroupMember(sql, groupId, userId)) throw conflict('Already exists');
      const user = await lookupUser(userId);
      if (!user) throw notFound('User');
      return sql.begin(async (tx) => {
        const added = await groups.insertGroupMember(tx, groupId, userId, accessLevel);
        if (!added) throw conflict('Already exists');
        await event(tx, 'group_member.added', principal, group, added, user);
        return added;
      });
    },

    async updateMember(principal: Principal, groupId: number, userId: number, accessLevel: number) {
      const group = await administeredGroup(principal, groupId);
      if (!(await groups.findGroupMember(sql, groupId, userId))) throw notFound('User can not be found');
      if (!GROUP_ACCESS_LEVELS.includes(accessLevel))
        throw unprocessable({ access_level: ['is not included in the list'] });
      const user = await lookupUser(userId);
      return sql.begin(async (tx) => {
        const updated = await groups.updateGroupMemberLevel(tx, groupId, userId, accessLevel);
        if (!updated) throw notFound('User can not be found');
        await event(tx, 'group_member.updated', principal, group, updated, user);
        return updated;
      });
    },

    /** 7.14: a non-member is a 404 naming the user id and the group. */
    async removeMember(principal: Principal, groupId: number, userId: number) {
      const group = await administeredGroup(principal, groupId);
      const user = await lookupUser(userId);
      return sql.begin(async (tx) => {
        const removed = await groups.deleteGroupMember(tx, groupId, userId);
        if (!removed)
          throw new DomainError(
            ErrorCode.NOT_FOUND,
            `404 Not Found - user_id:${userId} not a member of group ${group.name}`,
          );
        await event(tx, 'group_member.removed', principal, group, removed, user);
        return removed;
      });
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
