import { pagedList } from '@hub/common';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** The system hooks, for admins. */
export const createQueryResolvers = ({ systemHooks, cursors }: ResolverDeps): QueryResolvers => ({
  // The admin check (in list) comes before the arguments are read.
  systemHooks: async (_p, args, { principal }) => pagedList(cursors, args, systemHooks.list(principal)),
  systemHook: (_p, { id }, { principal }) => systemHooks.find(principal, id),
});
