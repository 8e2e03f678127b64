import {
  usersLookup,
  authorize,
  MEMBER_ACCESS_LEVELS,
  notFound,
  membershipEvents,
  unprocessable,
  type InternalClient,
  type Principal,
  type ProjectAccess,
  type TransactionSql,
  type UserSummary,
  type Sql,
} from '@hub/common';
import * as members from './db/members';
import { findAccess } from './db/project-facts';

/** Team changes and the access answers built on them. */
export function createMembershipService(deps: { sql: Sql; identity: InternalClient }) {
  const { sql } = deps;

  async function lookupUsers(ids: number[], query?: string): Promise<UserSummary[]> {
    return (await deps.identity.call(usersLookup, { ids, query })).users;
  }

  async function accessOf(principal: Principal, projectId: number): Promise<ProjectAccess | null> {
    return (await findAccess(sql, principal.userId, [projectId])).get(projectId) ?? null;
  }

  function checkLevel(accessLevel: number) {
    if (!MEMBER_ACCESS_LEVELS.includes(accessLevel))
      throw unprocessable({ access_level: ['is not included in the list'] });
  }

  const event = (
    tx: TransactionSql,
    type: Extract<keyof typeof membershipEvents.schemas, `member.${string}`>,
    principal: Principal,
    member: members.MemberRow,
    username: string | null,
  ) =>
    membershipEvents.record(tx, type, {
      project_id: member.projectId,
      user_id: member.userId,
      user_username: username,
      access_level: member.accessLevel,
      actor_id: principal.userId,
      actor_username: principal.username,
    });

  return {
    accessFor: (userId: number | null, projectIds: readonly number[]) => findAccess(sql, userId, projectIds),

    /**
     * Which members a team list holds: all of them, or those whose username contains `query`
     * (GitLab 7.14: `username LIKE %query%`; case-insensitive, as on its MySQL). Identity's search
     * also matches names and emails, so its answer is narrowed to usernames here.
     */
    async memberFilter(projectId: number, query: string | undefined): Promise<members.MemberFilter> {
      if (!query) return { projectId, userIds: null };
      const ids = await members.memberUserIds(sql, projectId);
      const needle = query.toLowerCase();
      const userIds = (await lookupUsers(ids, query))
        .filter((u) => u.username.toLowerCase().includes(needle))
        .map((u) => u.id);
      return { projectId, userIds };
    },

    /** GitLab's idempotent add: an existing member keeps the existing membership. */
    async addMember(principal: Principal, projectId: number, userId: number, accessLevel: number) {
      authorize(await accessOf(principal, projectId), principal, 'admin_project');
      const existing = await members.findMember(sql, projectId, userId);
      if (existing) return existing;
      checkLevel(accessLevel);
      const [user] = await lookupUsers([userId]);
      if (!user) throw notFound('User');
      return sql.begin(async (tx) => {
        const added = await members.insertMember(tx, projectId, userId, accessLevel);
        if (!added) {
          // A concurrent add won the race: that membership stands, as with any existing one.
          const existing = await members.findMember(tx, projectId, userId);
          if (!existing) throw notFound('Project'); // deleted since it was authorized
          return existing;
        }
        await event(tx, 'member.added', principal, added, user.username);
        return added;
      });
    },

    async updateMember(principal: Principal, projectId: number, userId: number, accessLevel: number) {
      // The namespace owner's row (the creator's, Master) changes like any other, as in GitLab
      // 7.14; their Owner rights come from owning the namespace, not from this row.
      authorize(await accessOf(principal, projectId), principal, 'admin_project');
      checkLevel(accessLevel);
      return sql.begin(async (tx) => {
        const updated = await members.updateMemberLevel(tx, projectId, userId, accessLevel);
        if (!updated) throw notFound('User can not be found');
        await event(tx, 'member.updated', principal, updated, null);
        return updated;
      });
    },

    /** Idempotent: removing a non-member succeeds and changes nothing. */
    async removeMember(principal: Principal, projectId: number, userId: number) {
      authorize(await accessOf(principal, projectId), principal, 'admin_project');
      if (!(await members.findMember(sql, projectId, userId))) return null;
      const [user] = await lookupUsers([userId]);
      return sql.begin(async (tx) => {
        const removed = await members.deleteMember(tx, projectId, userId);
        if (removed) await event(tx, 'member.removed', principal, removed, user?.username ?? null);
        return removed ?? null;
      });
    },
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
