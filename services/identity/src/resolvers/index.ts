import { DateTimeScalar } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createGroupMutations, createGroupQueries, createGroupResolvers } from './Group';
import { createMutationResolvers } from './Mutation';
import { createNamespaceResolvers } from './Namespace';
import { createQueryResolvers } from './Query';
import {
  applicationSettingsResolvers,
  createSettingsMutationResolvers,
  createSettingsQueryResolvers,
} from './settings';
import { createUserResolvers } from './User';
import { createKeyMutations, createProjectResolvers, createSshKeyResolvers, createUserKeyResolvers } from './keys';
import {
  groupConnectionResolvers,
  namespaceConnectionResolvers,
  sshKeyConnectionResolvers,
  userConnectionResolvers,
} from './lists';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  DateTime: DateTimeScalar,
  Query: { ...createQueryResolvers(deps), ...createGroupQueries(deps), ...createSettingsQueryResolvers(deps) },
  Mutation: {
    ...createMutationResolvers(deps),
    ...createGroupMutations(deps),
    ...createSettingsMutationResolvers(deps),
    ...createKeyMutations(deps),
  },
  User: { ...createUserResolvers(deps), ...createUserKeyResolvers(deps) },
  Project: createProjectResolvers(deps),
  Namespace: createNamespaceResolvers(deps),
  Group: createGroupResolvers(deps),
  UserConnection: userConnectionResolvers,
  NamespaceConnection: namespaceConnectionResolvers,
  GroupConnection: groupConnectionResolvers,
  SshKeyConnection: sshKeyConnectionResolvers,
  SshKey: createSshKeyResolvers(deps),
  ApplicationSettings: applicationSettingsResolvers,
});
