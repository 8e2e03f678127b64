import { DateTimeScalar } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { blockUser, unblockUser } from './Mutation/setUserState';
import { createOAuthToken } from './Mutation/createOAuthToken';
import { createSession } from './Mutation/createSession';
import { createUser } from './Mutation/createUser';
import { deleteUser } from './Mutation/deleteUser';
import { resetPrivateToken } from './Mutation/resetPrivateToken';
import { updateUser } from './Mutation/updateUser';
import { createNamespaceResolvers } from './Namespace';
import { createQueryResolvers } from './Query';
import { createUserResolvers } from './User';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  DateTime: DateTimeScalar,
  Query: createQueryResolvers(deps),
  Mutation: {
    createUser: createUser(deps),
    updateUser: updateUser(deps),
    deleteUser: deleteUser(deps),
    blockUser: blockUser(deps),
    unblockUser: unblockUser(deps),
    createSession: createSession(deps),
    createOAuthToken: createOAuthToken(deps),
    resetPrivateToken: resetPrivateToken(deps),
  },
  User: createUserResolvers(deps),
  Namespace: createNamespaceResolvers(),
});
