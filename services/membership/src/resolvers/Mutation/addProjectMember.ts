import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const addProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['addProjectMember'] =>
  (_parent, { projectId, userId, accessLevel }, { principal }) => {
    requireUser(principal);
    return membership.addMember(principal, projectId, userId, accessLevel);
  };
