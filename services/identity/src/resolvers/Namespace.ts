import type { NamespaceResolvers } from '../generated/graphql';

export const createNamespaceResolvers = (): NamespaceResolvers => ({
  __resolveReference: (reference, { loaders }) => loaders.namespaceById.load((reference as { id: number }).id),
  owner: (namespace, _args, { loaders }) =>
    namespace.ownerId === null ? null : loaders.userById.load(namespace.ownerId),
});
