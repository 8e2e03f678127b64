import { isGlobalIdReference, publicEnum, referencedDatabaseId, toGlobalId, type Principal } from '@hub/common';
import type { NamespaceRow } from '../db/namespaces';
import type { NamespaceResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const namespaceKindOf = publicEnum('NamespaceKind', { user: 'USER', group: 'GROUP' } as const);

export const createNamespaceResolvers = ({ groups }: ResolverDeps): NamespaceResolvers => {
  /**
   * Whom node(id:) shows a namespace: admins; the user whose personal namespace it is; and, for a
   * group's namespace, whoever Query.group would show the group.
   */
  const visible = async (principal: Principal, namespace: NamespaceRow) => {
    if (principal.isAdmin) return true;
    if (namespace.kind === 'user') return principal.userId !== null && namespace.ownerId === principal.userId;
    return (await groups.groupIfReadable(principal, namespace.id)) !== null;
  };

  return {
    // `{ databaseId }` from another subgraph: the namespace as it is. `{ id }`, a global id from
    // node(id:): only a namespace the caller may see, else null.
    __resolveReference: async (reference, { principal, loaders }) => {
      const id = referencedDatabaseId('Namespace', reference);
      if (id === null) return null;
      const namespace = await loaders.namespaceById.load(id);
      if (!namespace || !isGlobalIdReference(reference)) return namespace;
      return (await visible(principal, namespace)) ? namespace : null;
    },
    id: (namespace) => toGlobalId('Namespace', namespace.id),
    databaseId: (namespace) => namespace.id,
    kind: (namespace) => namespaceKindOf(namespace.kind),
    v3Kind: (namespace) => namespace.kind,
    owner: (namespace, _args, { loaders }) =>
      namespace.ownerId === null ? null : loaders.userById.load(namespace.ownerId),
  };
};
