import { pageWindow } from '@hub/common';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** The system hooks, for admins. */
export const createQueryResolvers = ({ systemHooks }: ResolverDeps): QueryResolvers => ({
  systemHooks: async (_p, args, { principal }) => {
    const { rows, total } = await systemHooks.list(principal, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  systemHook: (_p, { id }, { principal }) => systemHooks.find(principal, id),
});
