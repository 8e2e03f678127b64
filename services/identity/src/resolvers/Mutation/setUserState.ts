import { notFound, requireAdmin } from '@hub/common';
import type { UserRow } from '../../db/users';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

/** blockUser and unblockUser differ only in the state they set. */
const setUserState =
  (state: UserRow['state']) =>
  ({ identity }: ResolverDeps): MutationResolvers['blockUser'] =>
  async (_parent, { id }, { principal }) => {
    requireAdmin(principal);
    const user = await identity.setState(id, state);
    if (!user) throw notFound('User');
    return user;
  };

export const blockUser = setUserState('blocked');
export const unblockUser = setUserState('active');
