import { mutationPayload, Visibility as VisibilityLevel } from '@hub/common';
import type { MutationResolvers, Visibility } from '../generated/graphql';
import type { ProjectAttributes } from '../domain/project-attributes';
import type { ResolverDeps } from './deps';

/** The level each public visibility stands for, as the service stores it. */
const VISIBILITY_LEVELS: Record<Visibility, number> = {
  PRIVATE: VisibilityLevel.PRIVATE,
  INTERNAL: VisibilityLevel.INTERNAL,
  PUBLIC: VisibilityLevel.PUBLIC,
};

/**
 * A create or update input as the service reads it: v3's number when the facade sent one (it may
 * be one GitLab refused, which the service answers in GitLab's words), else the enum's level.
 */
function attributesOf<T extends { visibility?: Visibility | null; v3VisibilityLevel?: number | null }>(
  input: T,
): Omit<T, 'visibility' | 'v3VisibilityLevel'> & ProjectAttributes {
  const { visibility, v3VisibilityLevel, ...attributes } = input;
  const level = v3VisibilityLevel ?? (visibility ? VISIBILITY_LEVELS[visibility] : undefined);
  return level === undefined ? attributes : { ...attributes, visibilityLevel: level };
}

const createProject =
  ({ projects }: ResolverDeps): MutationResolvers['createProject'] =>
  (_parent, { input }, { principal }, info) => {
    const { clientMutationId, ...settings } = input;
    return mutationPayload('project', { clientMutationId }, info, () =>
      projects.create(principal, attributesOf(settings)),
    );
  };

const createProjectForUser =
  ({ projects }: ResolverDeps): MutationResolvers['createProjectForUser'] =>
  (_parent, { input }, { principal }, info) => {
    const { clientMutationId, userId, ...settings } = input;
    return mutationPayload('project', { clientMutationId }, info, () =>
      projects.create(principal, attributesOf(settings), userId),
    );
  };

/** The deleted project's id, or null when there was nothing the caller could see to delete. */
const deleteProject =
  ({ projects }: ResolverDeps): MutationResolvers['deleteProject'] =>
  (_parent, { input: { clientMutationId, projectId } }, { principal }, info) =>
    mutationPayload('projectId', { clientMutationId }, info, async () =>
      (await projects.remove(principal, projectId)) ? projectId : null,
    );

const forkProject =
  ({ projects }: ResolverDeps): MutationResolvers['forkProject'] =>
  (_parent, { input: { clientMutationId, projectId } }, { principal }, info) =>
    mutationPayload('project', { clientMutationId }, info, () => projects.fork(principal, projectId));

const createForkRelation =
  ({ projects }: ResolverDeps): MutationResolvers['createForkRelation'] =>
  (_parent, { input: { clientMutationId, projectId, forkedFromId } }, { principal }, info) =>
    mutationPayload('project', { clientMutationId }, info, () =>
      projects.createForkRelation(principal, projectId, forkedFromId),
    );

const deleteForkRelation =
  ({ projects }: ResolverDeps): MutationResolvers['deleteForkRelation'] =>
  (_parent, { input: { clientMutationId, projectId } }, { principal }, info) =>
    mutationPayload('project', { clientMutationId }, info, () => projects.deleteForkRelation(principal, projectId));

const updateProject =
  ({ projects }: ResolverDeps): MutationResolvers['updateProject'] =>
  (_parent, { input }, { principal }, info) => {
    const { clientMutationId, projectId, ...changes } = input;
    return mutationPayload('project', { clientMutationId }, info, () =>
      projects.update(principal, projectId, attributesOf(changes)),
    );
  };

const transferProjectToGroup =
  ({ projects }: ResolverDeps): MutationResolvers['transferProjectToGroup'] =>
  (_parent, { input: { clientMutationId, projectId, groupId } }, { principal }, info) =>
    mutationPayload(
      'project',
      { clientMutationId },
      info,
      async () => (await projects.transfer(principal, projectId, groupId)).project,
    );

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
