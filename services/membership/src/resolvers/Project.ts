import { authorize } from '@hub/common';
import { findMember } from '../db/members';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { projectMemberList } from './member-lists';

/** The team of a project the viewer may read (the projects subgraph checked too; this is the owner's check). */
export const createProjectResolvers = (deps: ResolverDeps): ProjectResolvers => ({
  // Other subgraphs reference a project by its databaseId; this subgraph's Project is `{ id }`.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (project) => project.id,

  members: async (project, args, { principal, loaders }) => {
    authorize(await loaders.access.load(project.id), principal, 'read_project');
    return projectMemberList(deps, await deps.membership.memberFilter(project.id, args.query ?? undefined), args);
  },

  member: async (project, { userId }, { principal, loaders }) => {
    authorize(await loaders.access.load(project.id), principal, 'read_project');
    return (await findMember(deps.sql, project.id, userId)) ?? null;
  },
});
