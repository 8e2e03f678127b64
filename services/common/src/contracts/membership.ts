// The contract of services/membership: the events it emits and its internal endpoints. Owned by membership.
import { z } from 'zod';
import { defineEvents, endpoint, payload } from './define';
import { projectFacts } from './projects';
import { actor, id, lookupId, lookupIds } from './shared';

const member = payload({
  project_id: id,
  user_id: id,
  user_username: z.string().nullable(),
  access_level: z.number().int(),
  ...actor,
});

/** A group member; the group's name and path ride along for system hooks. */
const groupMember = payload({
  group_id: id,
  group_name: z.string(),
  group_path: z.string(),
  user_id: id,
  user_username: z.string().nullable(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  access_level: z.number().int(),
  ...actor,
});

export const membershipEvents = defineEvents('membership', {
  'member.added': member,
  'member.updated': member,
  'member.removed': member,
  'group_member.added': groupMember,
  'group_member.updated': groupMember,
  'group_member.removed': groupMember,
});

/**
 * What membership knows about one project and one user: everything an access decision needs
 * (`can` in access.ts decides from it).
 */
export const projectAccess = z.object({
  projectId: id,
  visibilityLevel: z.number().int(),
  /** The namespace owner, who is Owner of the project. */
  ownerId: id.nullable(),
  /** The user's membership level, null when the user is not a member. */
  memberLevel: z.number().int().nullable(),
  /** The user's level in the project's group, null when it is not in a group or the user is not a member of it. */
  groupLevel: z.number().int().nullable(),
  notificationLevel: z.number().int().nullable(),
  archived: z.boolean(),
  issuesEnabled: z.boolean(),
  mergeRequestsEnabled: z.boolean(),
  snippetsEnabled: z.boolean(),
  wikiEnabled: z.boolean(),
});

/** The authorization API: per asked project, in order, its access facts, or null where none exists. */
export const accessLookup = endpoint(
  '/internal/access',
  z.object({ userId: lookupId.nullable(), projectIds: lookupIds }),
  z.object({ access: z.array(projectAccess.nullable()) }),
);

/**
 * The projects a user reaches through project or group membership, except the ones they own:
 * callers match the owner themselves (projects.owner_id), so a user with thousands of personal
 * projects costs a short list, not one id per project on every request.
 */
export const memberProjects = endpoint(
  '/internal/member-projects',
  z.object({ userId: lookupId }),
  z.object({ projectIds: z.array(id) }),
);

/**
 * What projects tells membership about a project so it can decide access. Applied only when
 * `version` is newer than what membership holds, so this call and the `project.*` event that
 * carries the same facts may arrive in any order.
 */
export const applyProjectFacts = endpoint('/internal/project-facts', projectFacts, z.object({ applied: z.boolean() }));

/** What identity tells membership about a group: the group (or its deletion) and, at creation, its first Owner. */
export const applyGroup = endpoint(
  '/internal/groups/apply',
  z.object({ groupId: id, name: z.string(), path: z.string(), deleted: z.boolean(), ownerId: id.nullable() }),
  z.object({ applied: z.boolean() }),
);

/** Per asked group, in order (its id as asked): the user's level in it and whether the user may see it (GitLab's read_group). */
export const groupAccessLookup = endpoint(
  '/internal/groups/access',
  z.object({ userId: lookupId.nullable(), groupIds: lookupIds }),
  z.object({
    access: z.array(z.object({ groupId: lookupId, level: z.number().int().nullable(), readable: z.boolean() })),
  }),
);

/** The groups a user is a member of. */
export const memberGroups = endpoint(
  '/internal/groups/of-member',
  z.object({ userId: lookupId }),
  z.object({ groupIds: z.array(id) }),
);
