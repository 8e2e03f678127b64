import { DateTimeScalar, JSONScalar } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createProject } from './Mutation/createProject';
import { createProjectForUser } from './Mutation/createProjectForUser';
import { deleteProject } from './Mutation/deleteProject';
import { forkProject } from './Mutation/forkProject';
import { createForkRelation, deleteForkRelation } from './Mutation/forkRelation';
import { updateProject } from './Mutation/updateProject';
import { createProjectResolvers } from './Project';
import { projectEventResolvers } from './ProjectEvent';
import { createQueryResolvers } from './Query';

export type { ResolverDeps };

export const createResolvers = (deps: ResolverDeps): Resolvers => ({
  DateTime: DateTimeScalar,
  JSON: JSONScalar,
  Query: createQueryResolvers(deps),
  Mutation: {
    createProject: createProject(deps),
    createProjectForUser: createProjectForUser(deps),
    updateProject: updateProject(deps),
    deleteProject: deleteProject(deps),
    forkProject: forkProject(deps),
    createForkRelation: createForkRelation(deps),
    deleteForkRelation: deleteForkRelation(deps),
  },
  Project: createProjectResolvers(deps),
  ProjectEvent: projectEventResolvers,
});
