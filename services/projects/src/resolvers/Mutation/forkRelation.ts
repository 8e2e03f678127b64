import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const createForkRelation =
  ({ projects }: ResolverDeps): MutationResolvers['createForkRelation'] =>
  (_parent, { id, forkedFromId }, { principal }) =>
    projects.createForkRelation(principal, id, forkedFromId);

export const deleteForkRelation =
  ({ projects }: ResolverDeps): MutationResolvers['deleteForkRelation'] =>
  (_parent, { id }, { principal }) =>
    projects.deleteForkRelation(principal, id);
