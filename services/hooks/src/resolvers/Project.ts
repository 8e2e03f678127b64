import { pageWindow } from '@hub/common';
import { findHook, listHooks } from '../db/hooks';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** A project's hooks, for Masters and up (and admins). */
export const createProjectResolvers = ({ sql, hooks }: ResolverDeps): ProjectResolvers => ({
  // Other subgraphs reference a project by its `databaseId` key; it is the project's `id` here.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (project) => project.id,
  hooks: async (project, args, { principal }) => {
    await hooks.authorizeAdmin(principal, project.id);
    const { rows, total } = await listHooks(sql, project.id, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  hook: async (project, { id }, { principal }) => {
    await hooks.authorizeAdmin(principal, project.id);
    return (await findHook(sql, project.id, id)) ?? null;
  },
});
