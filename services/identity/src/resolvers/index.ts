import { DateTimeScalar, ownedNodes } from '@hub/common';
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

export function createResolvers(deps: ResolverDeps): Resolvers {
  const user = createUserResolvers(deps);
  return {
    DateTime: DateTimeScalar,
    Query: {
      ...createQueryResolvers(deps),
      ...createGroupQueries(deps),
      ...createSettingsQueryResolvers(deps),
      userNodes: ownedNodes('User', user.__resolveReference!),
    },
    Mutation: {
      ...createMutationResolvers(deps),
      ...createGroupMutations(deps),
      ...createSettingsMutationResolvers(deps),
      ...createKeyMutations(deps),
    },
    User: { ...user, ...createUserKeyResolvers(deps) },
    Project: createProjectResolvers(deps),
    Namespace: createNamespaceResolvers(deps),
    Group: createGroupResolvers(deps),
    UserConnection: userConnectionResolvers,
    NamespaceConnection: namespaceConnectionResolvers,
    GroupConnection: groupConnectionResolvers,
    SshKeyConnection: sshKeyConnectionResolvers,
    SshKey: createSshKeyResolvers(deps),
    ApplicationSettings: applicationSettingsResolvers,
  };
}
