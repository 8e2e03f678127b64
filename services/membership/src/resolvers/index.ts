import { DateTimeScalar } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { addProjectMember } from './Mutation/addProjectMember';
import { removeProjectMember } from './Mutation/removeProjectMember';
import { updateProjectMember } from './Mutation/updateProjectMember';
import { createProjectResolvers } from './Project';
import { projectMemberResolvers } from './ProjectMember';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  DateTime: DateTimeScalar,
  Mutation: {
    addProjectMember: addProjectMember(deps),
    updateProjectMember: updateProjectMember(deps),
    removeProjectMember: removeProjectMember(deps),
  },
  Project: createProjectResolvers(deps),
  ProjectMember: projectMemberResolvers,
});
