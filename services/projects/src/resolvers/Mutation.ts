import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const createProject =
  ({ projects }: ResolverDeps): MutationResolvers['createProject'] =>
  (_parent, { input }, { principal }) =>
    projects.create(principal, input);

const createProjectForUser =
  ({ projects }: ResolverDeps): MutationResolvers['createProjectForUser'] =>
  (_parent, { userId, input }, { principal }) =>
    projects.create(principal, { ...input, namespaceId: undefined }, userId);

const deleteProject =
  ({ projects }: ResolverDeps): MutationResolvers['deleteProject'] =>
  (_parent, { id }, { principal }) =>
    projects.remove(principal, id);

const forkProject =
  ({ projects }: ResolverDeps): MutationResolvers['forkProject'] =>
  (_parent, { id }, { principal }) =>
    projects.fork(principal, id);

const createForkRelation =
  ({ projects }: ResolverDeps): MutationResolvers['createForkRelation'] =>
  (_parent, { id, forkedFromId }, { principal }) =>
    projects.createForkRelation(principal, id, forkedFromId);

const deleteForkRelation =
  ({ projects }: ResolverDeps): MutationResolvers['deleteForkRelation'] =>
  (_parent, { id }, { principal }) =>
    projects.deleteForkRelation(principal, id);

const updateProject =
  ({ projects }: ResolverDeps): MutationResolvers['updateProject'] =>
  (_parent, { id, input }, { principal }) =>
    projects.update(principal, id, input);

const transferProjectToGroup =
  ({ projects }: ResolverDeps): MutationResolvers['transferProjectToGroup'] =>
  async (_parent, { groupId, projectId }, { principal }) =>
    (await projects.transfer(principal, projectId, groupId)).project;

/** Every mutation of this subgraph, made from the same dependencies. */
export const createMutationResolvers = (deps: ResolverDeps): MutationResolvers => ({
  transferProjectToGroup: transferProjectToGroup(deps),
  createProject: createProject(deps),
  createProjectForUser: createProjectForUser(deps),
  updateProject: updateProject(deps),
  deleteProject: deleteProject(deps),
  forkProject: forkProject(deps),
  createForkRelation: createForkRelation(deps),
  deleteForkRelation: deleteForkRelation(deps),
});
