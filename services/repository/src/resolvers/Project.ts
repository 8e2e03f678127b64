import { authorize, can } from '@hub/common';
import type { ProjectResolvers, QueryResolvers } from '../generated/graphql';

export const projectResolvers: ProjectResolvers = {
  // Other subgraphs reference a project by its `databaseId` key; it is the project's `id` here.
  __resolveReference: (reference) => {
    const { databaseId, defaultBranch } = reference as { databaseId: number; defaultBranch?: string };
    return { id: databaseId, defaultBranch };
  },
  databaseId: (project) => project.id,

  repository: async (project, _args, { principal, loaders }) => {
    authorize(await loaders.access.load(project.id), principal, 'download_code');
    return { projectId: project.id, defaultBranch: project.defaultBranch ?? 'master' };
  },

  gitAccess: async (project, _args, { principal, loaders }) => {
    const access = await loaders.access.load(project.id);
    const allowed = (ability: Parameters<typeof can>[2]) => (access ? can(access, principal, ability) : false);
    const protection = access ? await loaders.branchProtection.load(project.id) : null;
    return {
      download: allowed('download_code'),
      push: allowed('push_code'),
      pushProtected: allowed('push_code_to_protected_branches'),
      protectedBranches: protection ? [...protection.protected] : [],
      developersCanPush: protection ? [...protection.developersCanPush] : [],
      userId: principal.userId,
      username: principal.username,
    };
  },
};

export const queryResolvers: QueryResolvers = {
  // The same check as Project.repository's, on the id the caller names.
  repositoryReads: async (_root, { projectId }, { principal, loaders }) => {
    authorize(await loaders.access.load(projectId), principal, 'download_code');
    return { projectId };
  },
};
