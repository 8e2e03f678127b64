import { pageWindow } from '@hub/common';
import type { GroupMemberResolvers, GroupResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** A group's members, for viewers who may see the group (GitLab's find_group decides). */
export const createGroupResolvers = ({ groups }: ResolverDeps): GroupResolvers => ({
  // Other subgraphs reference a group by its databaseId; this subgraph's Group is `{ id }`.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (group) => group.id,

  members: async (group, args, { principal }) => {
    const { rows, total } = await groups.listMembers(principal, group.id, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },

  member: (group, { userId }, { principal }) => groups.findMember(principal, group.id, userId),
});

export const groupMemberResolvers: GroupMemberResolvers = {
  // A reference the gateway completes from identity.
  user: (member) => ({ id: member.userId }),
};
