import { isGlobalIdReference, mutationPayload, referencedDatabaseId, requireUser, toGlobalId } from '@hub/common';
import type { GroupResolvers, MutationResolvers, QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { namespaceList } from './lists';

export const createGroupResolvers = ({ externalUrl, groups }: ResolverDeps): GroupResolvers => ({
  // `{ databaseId }` from another subgraph: the group as it is. `{ id }`, a global id from
  // node(id:): only a group Query.group would show the caller, else null (never FORBIDDEN).
  __resolveReference: async (reference, { principal, loaders }) => {
    const id = referencedDatabaseId('Group', reference);
    if (id === null) return null;
    if (isGlobalIdReference(reference)) return groups.groupIfReadable(principal, id);
    const namespace = await loaders.namespaceById.load(id);
    return namespace?.kind === 'group' ? namespace : null;
  },
  id: (group) => toGlobalId('Group', group.id),
  databaseId: (group) => group.id,
  avatarUrl: () => null,
  webUrl: (group) => `${externalUrl}/groups/${group.path}`,
});

export const createGroupQueries = (deps: ResolverDeps): Pick<QueryResolvers, 'groups' | 'group'> => {
  const { groups } = deps;
  return {
    groups: async (_parent, args, { principal }) =>
      namespaceList(deps, { of: await groups.namespacesOf(principal), kind: 'group', search: args.search }, args),

    group: async (_parent, { id, fullPath, path }, { principal }) => {
      requireUser(principal);
      try {
        return (await groups.readableGroup(principal, { id, path: fullPath ?? path })).group;
      } catch (error) {
        // "No such group" is null in the graph; the facade turns it into GitLab's 404.
        if ((error as { code?: string }).code === 'NOT_FOUND') return null;
        throw error;
      }
    },
  };
};

export const createGroupMutations = ({
  groups,
}: ResolverDeps): Pick<MutationResolvers, 'createGroup' | 'deleteGroup'> => ({
  createGroup: (_parent, { input: { clientMutationId, ...attrs } }, { principal }, info) =>
    mutationPayload('group', { clientMutationId }, info, () => groups.createGroup(principal, attrs)),
  deleteGroup: (_parent, { input: { clientMutationId, groupId } }, { principal }, info) =>
    mutationPayload('group', { clientMutationId }, info, () => groups.deleteGroup(principal, groupId)),
});
