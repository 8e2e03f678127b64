import { mutationPayload, requireUser } from '@hub/common';
import type { AccessLevel, MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** v3's access_level numbers of the public levels. */
const ACCESS_LEVELS: Record<AccessLevel, number> = { GUEST: 10, REPORTER: 20, DEVELOPER: 30, MASTER: 40, OWNER: 50 };

/**
 * A level no list holds: what an input without one asks for, so that the services refuse it where
 * they refuse any level outside their list (UNPROCESSABLE), after the same checks before it.
 */
const NO_LEVEL = 0;

/** The level an input asks for: v3's raw number when the facade sent one, else the enum's. */
const levelOf = (input: { accessLevel?: AccessLevel | null; v3AccessLevel?: number | null }) =>
  input.v3AccessLevel ?? (input.accessLevel ? ACCESS_LEVELS[input.accessLevel] : NO_LEVEL);

const addProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['addProjectMember'] =>
  (_parent, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, userId } = input;
    return mutationPayload('projectMember', { clientMutationId }, info, () =>
      membership.addMember(principal, projectId, userId, levelOf(input)),
    );
  };

const removeProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['removeProjectMember'] =>
  (_parent, { input: { clientMutationId, projectId, userId } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('projectMember', { clientMutationId }, info, () =>
      membership.removeMember(principal, projectId, userId),
    );
  };

const updateProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['updateProjectMember'] =>
  (_parent, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, userId } = input;
    return mutationPayload('projectMember', { clientMutationId }, info, () =>
      membership.updateMember(principal, projectId, userId, levelOf(input)),
    );
  };

const addGroupMember =
  ({ groups }: ResolverDeps): MutationResolvers['addGroupMember'] =>
  (_parent, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, groupId, userId } = input;
    return mutationPayload('groupMember', { clientMutationId }, info, () =>
      groups.addMember(principal, groupId, userId, levelOf(input)),
    );
  };

const updateGroupMember =
  ({ groups }: ResolverDeps): MutationResolvers['updateGroupMember'] =>
  (_parent, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, groupId, userId } = input;
    return mutationPayload('groupMember', { clientMutationId }, info, () =>
      groups.updateMember(principal, groupId, userId, levelOf(input)),
    );
  };

const removeGroupMember =
  ({ groups }: ResolverDeps): MutationResolvers['removeGroupMember'] =>
  (_parent, { input: { clientMutationId, groupId, userId } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('groupMember', { clientMutationId }, info, () =>
      groups.removeMember(principal, groupId, userId),
    );
  };

/** Every mutation of this subgraph, made from the same dependencies. */
export const createMutationResolvers = (deps: ResolverDeps): MutationResolvers => ({
  addProjectMember: addProjectMember(deps),
  updateProjectMember: updateProjectMember(deps),
  removeProjectMember: removeProjectMember(deps),
  addGroupMember: addGroupMember(deps),
  updateGroupMember: updateGroupMember(deps),
  removeGroupMember: removeGroupMember(deps),
});
