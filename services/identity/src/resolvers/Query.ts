import { pageWindow, requireUser } from '@hub/common';
import { findUserByUsername, listUsers } from '../db/users';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

export const createQueryResolvers = ({ sql, groups }: ResolverDeps): QueryResolvers => ({
  viewer: (_parent, _args, { principal, loaders }) =>
    principal.userId === null ? null : loaders.userById.load(principal.userId),

  user: async (_parent, { id, username }, { principal, loaders }) => {
    requireUser(principal);
    if (id !== null && id !== undefined) return loaders.userById.load(id);
    return username ? ((await findUserByUsername(sql, username)) ?? null) : null;
  },

  users: async (_parent, args, { principal }) => {
    requireUser(principal);
    const { rows, total } = await listUsers(sql, args, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },

  // GitLab v3: admins see every namespace, others their own and their groups (User#namespaces).
  namespaces: async (_parent, args, { principal }) => {
    const { rows, total } = await groups.listNamespaces(
      principal,
      { search: args.search },
      pageWindow(args.page, args.perPage),
    );
    return { nodes: rows, total };
  },
});
