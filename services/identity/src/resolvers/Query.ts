import { requireUser } from '@hub/common';
import { findUserByUsername } from '../db/users';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { namespaceList, userList } from './lists';

export const createQueryResolvers = (deps: ResolverDeps): QueryResolvers => {
  const { sql, groups } = deps;
  return {
    viewer: (_parent, _args, { principal, loaders }) =>
      principal.userId === null ? null : loaders.userById.load(principal.userId),

    user: async (_parent, { id, username }, { principal, loaders }) => {
      requireUser(principal);
      if (id !== null && id !== undefined) return loaders.userById.load(id);
      return username ? ((await findUserByUsername(sql, username)) ?? null) : null;
    },

    users: (_parent, args, { principal }) => {
      requireUser(principal);
      const { search, username, active, blocked } = args;
      return userList(deps, { search, username, active, blocked }, args);
    },

    // GitLab v3: admins see every namespace, others their own and their groups (User#namespaces).
    namespaces: async (_parent, args, { principal }) =>
      namespaceList(deps, { of: await groups.namespacesOf(principal), search: args.search }, args),
  };
};
