import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const updateProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['updateProjectMember'] =>
  (_parent, { projectId, userId, accessLevel }, { principal }) => {
    requireUser(principal);
    return membership.updateMember(principal, projectId, userId, accessLevel);
  };
