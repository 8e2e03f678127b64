import { accessLevelEnumOf } from '@hub/common';
import type { ProjectMemberResolvers } from '../generated/graphql';

export const projectMemberResolvers: ProjectMemberResolvers = {
  // A reference the gateway completes from identity.
  user: (member) => ({ id: member.userId }),
  accessLevel: (member) => accessLevelEnumOf(member.accessLevel),
  v3AccessLevel: (member) => member.accessLevel,
};
