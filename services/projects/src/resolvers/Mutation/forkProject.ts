import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const forkProject =
  ({ projects }: ResolverDeps): MutationResolvers['forkProject'] =>
  (_parent, { id }, { principal }) =>
    projects.fork(principal, id);
