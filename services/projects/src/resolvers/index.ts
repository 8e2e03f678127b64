import { DateTimeScalar, JSONScalar } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createGroupResolvers } from './Group';
import { createMutationResolvers } from './Mutation';
import { createProjectResolvers } from './Project';
import { projectEventResolvers } from './ProjectEvent';
import { projectConnectionResolvers, projectEventConnectionResolvers } from './project-lists';
import { createQueryResolvers } from './Query';
import { accessSettingResolvers, copiedUserResolvers, nodeResolvers, referencedIds } from './nodes';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  DateTime: DateTimeScalar,
  JSON: JSONScalar,
  Query: createQueryResolvers(deps),
  Mutation: createMutationResolvers(deps),
  Project: createProjectResolvers(deps),
  Group: createGroupResolvers(deps),
  ProjectEvent: projectEventResolvers,
  ProjectConnection: projectConnectionResolvers,
  ProjectEventConnection: projectEventConnectionResolvers,
  Node: nodeResolvers,
  User: copiedUserResolvers,
  AccessSetting: accessSettingResolvers,
  Namespace: referencedIds,
  Milestone: referencedIds,
  Label: referencedIds,
  Snippet: referencedIds,
  Note: referencedIds,
  Hook: referencedIds,
  SystemHook: referencedIds,
  HookDelivery: referencedIds,
  SshKey: referencedIds,
});
