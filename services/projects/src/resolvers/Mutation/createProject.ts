import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const createProject =
  ({ projects }: ResolverDeps): MutationResolvers['createProject'] =>
  (_parent, { input }, { principal }) =>
    projects.create(principal, input);
