import { notFound, requireAdmin } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const updateUser =
  ({ identity }: ResolverDeps): MutationResolvers['updateUser'] =>
  async (_parent, { id, input }, { principal }) => {
    requireAdmin(principal);
    const user = await identity.updateUser(id, input);
    if (!user) throw notFound('User');
    return user;
  };
