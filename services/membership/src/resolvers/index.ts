import { DateTimeScalar } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createGroupResolvers, groupMemberResolvers } from './Group';
import { groupMemberConnectionResolvers, projectMemberConnectionResolvers } from './member-lists';
import { createMutationResolvers } from './Mutation';
import { createProjectResolvers } from './Project';
import { projectMemberResolvers } from './ProjectMember';
import { userRefResolvers } from './User';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  DateTime: DateTimeScalar,
  Group: createGroupResolvers(deps),
  GroupMember: groupMemberResolvers,
  GroupMemberConnection: groupMemberConnectionResolvers,
  Mutation: createMutationResolvers(deps),
  Project: createProjectResolvers(deps),
  ProjectMember: projectMemberResolvers,
  ProjectMemberConnection: projectMemberConnectionResolvers,
  User: userRefResolvers,
});
