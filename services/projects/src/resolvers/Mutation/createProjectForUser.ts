import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const createProjectForUser =
  ({ projects }: ResolverDeps): MutationResolvers['createProjectForUser'] =>
  (_parent, { userId, input }, { principal }) =>
    projects.create(principal, { ...input, namespaceId: undefined }, userId);
