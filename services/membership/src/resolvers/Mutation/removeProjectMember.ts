import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const removeProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['removeProjectMember'] =>
  async (_parent, { projectId, userId }, { principal }) => {
    requireUser(principal);
    const removed = await membership.removeMember(principal, projectId, userId);
    return { projectId, userId, removed };
  };
