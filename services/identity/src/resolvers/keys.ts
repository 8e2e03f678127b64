import { pageWindow } from '@hub/common';
import type { MutationResolvers, ProjectResolvers, UserResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** User.keys and User.key: the user's SSH keys, for the user and admins. */
export const createUserKeyResolvers = ({ keys }: ResolverDeps): Pick<UserResolvers, 'keys' | 'key'> => ({
  keys: async (user, args, { principal }) => {
    const page = await keys.userKeys(principal, user.id, pageWindow(args.page, args.perPage));
    return page && { nodes: page.rows, total: page.total };
  },
  key: (user, { id }, { principal }) => keys.userKey(principal, user.id, id),
});

/** Project.deployKeys and Project.deployKey, for Masters and up (and admins). */
export const createProjectResolvers = ({ keys }: ResolverDeps): ProjectResolvers => ({
  // Other subgraphs reference a project by its databaseId; this subgraph's Project is `{ id }`.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (project) => project.id,
  deployKeys: async (project, args, { principal }) => {
    const { rows, total } = await keys.projectDeployKeys(principal, project.id, pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  deployKey: (project, { id }, { principal }) => keys.projectDeployKey(principal, project.id, id),
});

export const createKeyMutations = ({
  keys,
}: ResolverDeps): Pick<MutationResolvers, 'createSshKey' | 'deleteSshKey' | 'addDeployKey' | 'removeDeployKey'> => ({
  createSshKey: (_parent, { userId, input }, { principal }) => keys.createUserKey(principal, userId, input),
  deleteSshKey: (_parent, { userId, id }, { principal }) => keys.deleteUserKey(principal, userId, id),
  addDeployKey: (_parent, { projectId, input }, { principal }) => keys.addDeployKey(principal, projectId, input),
  removeDeployKey: (_parent, { projectId, id }, { principal }) => keys.removeDeployKey(principal, projectId, id),
});
