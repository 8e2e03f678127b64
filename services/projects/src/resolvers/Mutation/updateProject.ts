import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const updateProject =
  ({ projects }: ResolverDeps): MutationResolvers['updateProject'] =>
  (_parent, { id, input }, { principal }) =>
    projects.update(principal, id, input);
