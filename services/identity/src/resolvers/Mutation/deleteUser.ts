import { requireAdmin } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const deleteUser =
  ({ identity }: ResolverDeps): MutationResolvers['deleteUser'] =>
  (_parent, { id }, { principal }) => {
    requireAdmin(principal);
    return identity.deleteUser(id);
  };
