import { DateTimeScalar } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createMutationResolvers } from './Mutation';
import { createNamespaceResolvers } from './Namespace';
import { createQueryResolvers } from './Query';
import { createUserResolvers } from './User';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  DateTime: DateTimeScalar,
  Query: createQueryResolvers(deps),
  Mutation: createMutationResolvers(deps),
  User: createUserResolvers(deps),
  Namespace: createNamespaceResolvers(),
});
