import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const addProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['addProjectMember'] =>
  (_parent, { projectId, userId, accessLevel }, { principal }) => {
    requireUser(principal);
    return membership.addMember(principal, projectId, userId, accessLevel);
  };

const removeProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['removeProjectMember'] =>
  async (_parent, { projectId, userId }, { principal }) => {
    requireUser(principal);
    const removed = await membership.removeMember(principal, projectId, userId);
    return { projectId, userId, removed };
  };

const updateProjectMember =
  ({ membership }: ResolverDeps): MutationResolvers['updateProjectMember'] =>
  (_parent, { projectId, userId, accessLevel }, { principal }) => {
    requireUser(principal);
    return membership.updateMember(principal, projectId, userId, accessLevel);
  };

const addGroupMember =
  ({ groups }: ResolverDeps): MutationResolvers['addGroupMember'] =>
  (_parent, { groupId, userId, accessLevel }, { principal }) => {
    requireUser(principal);
    return groups.addMember(principal, groupId, userId, accessLevel);
  };

const updateGroupMember =
  ({ groups }: ResolverDeps): MutationResolvers['updateGroupMember'] =>
  (_parent, { groupId, userId, accessLevel }, { principal }) => {
    requireUser(principal);
    return groups.updateMember(principal, groupId, userId, accessLevel);
  };

const removeGroupMember =
  ({ groups }: ResolverDeps): MutationResolvers['removeGroupMember'] =>
  (_parent, { groupId, userId }, { principal }) => {
    requireUser(principal);
    return groups.removeMember(principal, groupId, userId);
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
