import { authorize, pageWindow } from '@hub/common';
import { findMember } from '../db/members';
import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** The team of a project the viewer may read (the projects subgraph checked too; this is the owner's check). */
export const createProjectResolvers = ({ sql, membership }: ResolverDeps): ProjectResolvers => ({
  // Other subgraphs reference a project by its databaseId; this subgraph's Project is `{ id }`.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (project) => project.id,

  members: async (project, args, { principal, loaders }) => {
    authorize(await loaders.access.load(project.id), principal, 'read_project');
    const { rows, total } = await membership.listMembers(
      project.id,
      args.query ?? undefined,
      pageWindow(args.page, args.perPage),
    );
    return { nodes: rows, total };
  },

  member: async (project, { userId }, { principal, loaders }) => {
    authorize(await loaders.access.load(project.id), principal, 'read_project');
    return (await findMember(sql, project.id, userId)) ?? null;
  },
});
