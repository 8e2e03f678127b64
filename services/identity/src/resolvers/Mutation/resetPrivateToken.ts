import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const resetPrivateToken =
  ({ identity }: ResolverDeps): MutationResolvers['resetPrivateToken'] =>
  (_parent, _args, { principal }) =>
    identity.resetPrivateToken(requireUser(principal));
