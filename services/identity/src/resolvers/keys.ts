import { mutationPayload, referencedDatabaseId, toGlobalId } from '@hub/common';
import type { MutationResolvers, ProjectResolvers, SshKeyResolvers, UserResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { keyList } from './lists';

/** An SSH or deploy key: by its global id for node(id:), which checks here who may see it. */
export const createSshKeyResolvers = (deps: ResolverDeps): SshKeyResolvers => ({
  __resolveReference: (reference, { principal }) => {
    const id = referencedDatabaseId('SshKey', reference);
    return id === null ? null : deps.keys.keyById(principal, id);
  },
  id: (key) => toGlobalId('SshKey', key.id),
  databaseId: (key) => key.id,
});

/** User.keys and User.key: the user's SSH keys, for the user and admins. */
export const createUserKeyResolvers = (deps: ResolverDeps): Pick<UserResolvers, 'keys' | 'key'> => ({
  keys: (user, args, { principal }) =>
    deps.keys.maySeeKeysOf(principal, user.id) ? keyList(deps, { userId: user.id }, args) : null,
  key: (user, { id }, { principal }) => deps.keys.userKey(principal, user.id, id),
});

/** Project.deployKeys and Project.deployKey, for Masters and up (and admins). */
export const createProjectResolvers = (deps: ResolverDeps): ProjectResolvers => ({
  // Other subgraphs reference a project by its databaseId; this subgraph's Project is `{ id }`.
  __resolveReference: (reference) => ({ id: reference.databaseId }),
  databaseId: (project) => project.id,
  deployKeys: async (project, args, { principal }) => {
    await deps.keys.authorizeDeployKeys(principal, project.id);
    return keyList(deps, { projectId: project.id }, args);
  },
  deployKey: (project, { id }, { principal }) => deps.keys.projectDeployKey(principal, project.id, id),
});

export const createKeyMutations = ({
  keys,
}: ResolverDeps): Pick<MutationResolvers, 'createSshKey' | 'deleteSshKey' | 'addDeployKey' | 'removeDeployKey'> => ({
  createSshKey: (_parent, { input: { clientMutationId, userId, title, key } }, { principal }, info) =>
    mutationPayload('sshKey', { clientMutationId }, info, () => keys.createUserKey(principal, userId, { title, key })),
  deleteSshKey: (_parent, { input: { clientMutationId, userId, sshKeyId } }, { principal }, info) =>
    mutationPayload('sshKey', { clientMutationId }, info, () => keys.deleteUserKey(principal, userId, sshKeyId)),
  addDeployKey: (_parent, { input: { clientMutationId, projectId, title, key } }, { principal }, info) =>
    mutationPayload('sshKey', { clientMutationId }, info, () =>
      keys.addDeployKey(principal, projectId, { title, key }),
    ),
  removeDeployKey: (_parent, { input: { clientMutationId, projectId, sshKeyId } }, { principal }, info) =>
    mutationPayload('sshKey', { clientMutationId }, info, () => keys.removeDeployKey(principal, projectId, sshKeyId)),
});
