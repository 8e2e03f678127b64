import { memberProjects, requireUser } from '@hub/common';
import type { ListAudience } from '../db/projects';
import { projectList } from './project-lists';
import type { GroupResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { referencedIds } from './nodes';

/**
 * A group's projects. GitLab 7.14's GET /groups/:id listed every project of the group to anyone
 * who could see the group; here each viewer gets only the projects they may see (a group member
 * sees them all), so a group with one public project does not show its private ones.
 */
export const createGroupResolvers = (deps: ResolverDeps): GroupResolvers => ({
  __resolveReference: (reference) => ({ id: (reference as { databaseId: number }).databaseId }),
  ...referencedIds,

  projects: async (group, args, { principal }) => {
    const userId = requireUser(principal);
    const audience: ListAudience = principal.isAdmin
      ? { kind: 'all' }
      : { kind: 'visible', userId, memberOf: (await deps.membership.call(memberProjects, { userId })).projectIds };
    return projectList(deps, { audience, namespaceId: group.id, orderBy: 'id', sort: 'asc' }, args);
  },
});
