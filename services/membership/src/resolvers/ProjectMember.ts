import type { ProjectMemberResolvers } from '../generated/graphql';
import { accessLevelOf } from './access-level';

export const projectMemberResolvers: ProjectMemberResolvers = {
  // A reference the gateway completes from identity.
  user: (member) => ({ id: member.userId }),
  accessLevel: (member) => accessLevelOf(member, `project ${member.projectId}`),
  v3AccessLevel: (member) => member.accessLevel,
};
