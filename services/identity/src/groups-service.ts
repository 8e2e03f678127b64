import {
  AccessLevel,
  applyGroup,
  badRequest,
  forbidden,
  groupForbidden,
  groupAccessLookup,
  identityEvents,
  memberGroups,
  recordNotFound,
  requireUser,
  type InternalClient,
  type Logger,
  type Principal,
  type Sql,
  type TransactionSql,
  isUniqueViolation,
} from '@hub/common';
import * as namespaces from './db/namespaces';
import type { NamespaceRow } from './db/namespaces';
import { findUsersByIds } from './db/users';
import { groupProblems, type GroupAttributes } from './domain/group-attributes';

/**
 * Groups: namespaces of kind group (GitLab 7.14's groups.rb). Identity keeps the namespace;
 * membership keeps the members and answers who may see or administer a group, so every decision
 * here about a group asks membership.
 */
export function createGroupsService(deps: { sql: Sql; membership: InternalClient; logger: Logger }) {
  const { sql } = deps;

  async function levelIn(principal: Principal, group: NamespaceRow) {
    const { access } = await deps.membership.call(groupAccessLookup, {
      userId: principal.userId,
      groupIds: [group.id],
    });
    return { level: access[0]?.level ?? null, readable: principal.isAdmin || (access[0]?.readable ?? false) };
  }

  /** GitLab's find_group: 404 when there is none, 403 naming the user and the group when it may not be seen. */
  async function readableGroup(principal: Principal, key: { id?: number | null; path?: string | null }) {
    const group = await namespaces.findGroup(sql, key);
    if (!group) throw recordNotFound();
    const access = await levelIn(principal, group);
    if (!access.readable) throw groupForbidden(principal.username, group.name);
    return { group, level: access.level };
  }

  /**
   * The group with this id when Query.group would show it to `principal` (signed in, and
   * readableGroup's rule), else null: a global id (node(id:)) tells a hidden group from a missing one
   * no more than an id that does not exist does.
   */
  async function groupIfReadable(principal: Principal, id: number): Promise<NamespaceRow | null> {
    if (principal.userId === null) return null;
    const group = await namespaces.findGroup(sql, { id });
    if (!group) return null;
    return (await levelIn(principal, group)).readable ? group : null;
  }

  const event = async (
    tx: TransactionSql,
    type: 'group.created' | 'group.deleted',
    group: NamespaceRow,
    principal: Principal,
    ownerId: number | null,
  ) => {
    const [owner] = ownerId !== null ? await findUsersByIds(tx, [ownerId]) : [];
    await identityEvents.record(tx, type, {
      group_id: group.id,
      name: group.name,
      path: group.path,
      description: group.description,
      owner_id: owner?.id ?? null,
      owner_username: owner?.username ?? null,
      owner_email: owner?.email ?? null,
      owner_name: owner?.name ?? null,
      actor_id: principal.userId,
      actor_username: principal.username,
    });
  };

  /** Tells membership at once (the event is the backstop when this call fails). */
  async function tellMembership(group: NamespaceRow, deleted: boolean, ownerId: number | null) {
    try {
      await deps.membership.call(applyGroup, {
        groupId: group.id,
        name: group.name,
        path: group.path,
        deleted,
        ownerId,
      });
    } catch (error) {
      deps.logger.warn(
        { err: error, groupId: group.id },
        'membership did not take the group now; its event will carry it',
      );
    }
  }

  return {
    readableGroup,
    groupIfReadable,

    /**
     * The namespaces `principal` may list, as GitLab's User#namespaces saw them: every one for
     * admins (null), else the user's own and the groups they are members of. Signed-in callers only.
     */
    async namespacesOf(principal: Principal): Promise<namespaces.NamespaceFilter['of']> {
      const userId = requireUser(principal);
      return principal.isAdmin
        ? null
        : { ownerId: userId, groupIds: (await deps.membership.call(memberGroups, { userId })).groupIds };
    },

    /** Admins, and users allowed to create groups (can_create_group); the creator becomes its Owner. */
    async createGroup(principal: Principal, attrs: GroupAttributes): Promise<NamespaceRow> {
      const userId = requireUser(principal);
      const [user] = await findUsersByIds(sql, [userId]);
      if (!principal.isAdmin && !user?.canCreateGroup) throw forbidden();
      const group = { name: attrs.name.trim(), path: attrs.path.trim(), description: attrs.description ?? '' };
      const refuse = (fields: Record<string, string[]>) => badRequest(`Failed to save group ${rubyHash(fields)}`);
      const problems = groupProblems(group, await namespaces.takenByNamespaces(sql, group.name, group.path));
      if (problems) throw refuse(problems);
      const created = await sql
        .begin(async (tx) => {
          const row = await namespaces.insertGroupNamespace(tx, group);
          await event(tx, 'group.created', row, principal, userId);
          return row;
        })
        .catch(async (error: { code?: string; constraint_name?: string }) => {
          // A concurrent create took the name or path between the check and the insert: answered
          // as a repeat is, naming everything it took (the index names only the first).
          if (!isUniqueViolation(error)) throw error;
          const taken = groupProblems(group, await namespaces.takenByNamespaces(sql, group.name, group.path));
          throw refuse(
            taken ??
              (error.constraint_name === 'namespaces_group_name_key'
                ? { name: ['has already been taken'] }
                : { path: ['has already been taken'] }),
          );
        });
      await tellMembership(created, false, userId);
      return created;
    },

    /** The group's Owners and admins (GitLab's admin_group); the group's projects go with it, as 7.14's did. */
    async deleteGroup(principal: Principal, id: number): Promise<NamespaceRow> {
      requireUser(principal);
      const { group, level } = await readableGroup(principal, { id });
      if (!principal.isAdmin && level !== AccessLevel.OWNER) throw forbidden();
      const deleted = await sql.begin(async (tx) => {
        const row = await namespaces.deleteGroupNamespace(tx, group.id);
        if (!row) throw recordNotFound();
        await event(tx, 'group.deleted', row, principal, null);
        return row;
      });
      await tellMembership(deleted, true, null);
      return deleted;
    },
  };
}

/** Ruby's Hash#inspect of validation messages, as GitLab 7.14 put them into "Failed to save group …". */
function rubyHash(fields: Record<string, string[]>): string {
  const entries = Object.entries(fields).map(
    ([key, messages]) => `:${key}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`,
  );
  return `{${entries.join(', ')}}`;
}

export type GroupsService = ReturnType<typeof createGroupsService>;
