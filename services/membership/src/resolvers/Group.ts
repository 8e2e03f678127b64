import { accessLevelEnumOf } from '@hub/common';
import type { GroupMemberResolvers, GroupResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { groupMemberList } from './member-lists';

/** A group's members, for viewers who may see the group (GitLab's find_group decides). */
export const createGroupResolvers = (deps: ResolverDeps): GroupResolvers => ({
  // Other subgraphs reference a group by its databaseId; this subgraph's Group is `{ id }`.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (group) => group.id,

  members: async (group, args, { principal }) => {
    await deps.groups.authorizeMembers(principal, group.id);
    return groupMemberList(deps, group.id, args);
  },

  member: (group, { userId }, { principal }) => deps.groups.findMember(principal, group.id, userId),
});

export const groupMemberResolvers: GroupMemberResolvers = {
  // A reference the gateway completes from identity.
  user: (member) => ({ id: member.userId }),
  accessLevel: (member) => accessLevelEnumOf(member.accessLevel),
  v3AccessLevel: (member) => member.accessLevel,
};
