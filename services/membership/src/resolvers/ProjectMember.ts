import type { ProjectMemberResolvers } from '../generated/graphql';

export const projectMemberResolvers: ProjectMemberResolvers = {
  // A reference the gateway completes from identity.
  user: (member) => ({ id: member.userId }),
};
