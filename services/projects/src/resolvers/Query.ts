import { memberProjects, requireAdmin, requireUser, type Principal } from '@hub/common';
import { findProjectByFullPath, type ListAudience } from '../db/projects';
import { listShapeOf, projectList } from './project-lists';
import type { ProjectsContext } from '../context';
import type { QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { nodeQueries } from './nodes';
import { visibleProject } from './visible-project';

export const createQueryResolvers = (deps: ResolverDeps): QueryResolvers => {
  const { sql, membership } = deps;
  const memberOf = async (userId: number) => {
    return (await membership.call(memberProjects, { userId })).projectIds;
  };

  async function audience(scope: string, principal: Principal): Promise<ListAudience> {
    const userId = requireUser(principal);
    switch (scope) {
      case 'ALL':
        requireAdmin(principal);
        return { kind: 'all' };
      case 'OWNED':
        return { kind: 'owner', userId };
      case 'VISIBLE':
        return principal.isAdmin ? { kind: 'all' } : { kind: 'visible', userId, memberOf: await memberOf(userId) };
      default:
        return { kind: 'member', userId, memberOf: await memberOf(userId) };
    }
  }

  /** The project a full path ('namespace/path') names, when the viewer may see it. */
  async function projectByPath(fullPath: string | null | undefined, context: ProjectsContext) {
    const slash = fullPath?.lastIndexOf('/') ?? -1;
    if (!fullPath || slash <= 0) return null;
    return visibleProject(
      await findProjectByFullPath(sql, fullPath.slice(0, slash), fullPath.slice(slash + 1)),
      context,
    );
  }

  return {
    ...nodeQueries,
    // Anonymous callers see public projects (git clones them); the v3 API itself requires
    // credentials, which the facade enforces.
    project: async (_parent, { id, fullPath }, context) => {
      if (id !== undefined && id !== null) return visibleProject(await context.loaders.projectById.load(id), context);
      return projectByPath(fullPath, context);
    },

    // Named for the subgraphs that own them (notes, mergerequests), which check the rest.
    issue: async (_parent, { projectPath, iid }, context) => {
      const project = await projectByPath(projectPath, context);
      return project && { projectId: project.id, iid };
    },
    mergeRequest: async (_parent, { projectPath, iid }, context) => {
      const project = await projectByPath(projectPath, context);
      return project && { projectId: project.id, iid };
    },

    projects: async (_parent, args, { principal }, info) =>
      projectList(
        deps,
        {
          audience: await audience(args.scope ?? 'MEMBER', principal),
          archived: args.archived,
          search: args.search,
          nameContains: args.nameContains,
          orderBy: (args.orderBy ?? 'CREATED_AT').toLowerCase() as never,
          sort: args.sort === 'ASC' ? 'asc' : 'desc',
        },
        args,
        listShapeOf(info),
      ),
  };
};
