import { requireAdmin } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const createUser =
  ({ identity }: ResolverDeps): MutationResolvers['createUser'] =>
  (_parent, { input }, { principal }) => {
    requireAdmin(principal);
    return identity.createUser(input);
  };
