import { findHook } from '../db/hooks';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { hookList } from './hook-lists';

/** A project's hooks, for Masters and up (and admins). */
export const createProjectResolvers = ({ sql, cursors, hooks }: ResolverDeps): ProjectResolvers => ({
  // Other subgraphs reference a project by its `databaseId` key; it is the project's `id` here.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (project) => project.id,
  hooks: async (project, args, { principal }) => {
    await hooks.authorizeAdmin(principal, project.id);
    return hookList({ sql, cursors }, project.id, args);
  },
  hook: async (project, { id }, { principal }) => {
    await hooks.authorizeAdmin(principal, project.id);
    return (await findHook(sql, project.id, id)) ?? null;
  },
});
