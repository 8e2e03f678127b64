import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const deleteProject =
  ({ projects }: ResolverDeps): MutationResolvers['deleteProject'] =>
  (_parent, { id }, { principal }) =>
    projects.remove(principal, id);
