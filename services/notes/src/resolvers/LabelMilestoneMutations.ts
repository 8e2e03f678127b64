import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Label and milestone mutations: signed-in users only; the service decides the rest. */
export const createLabelMilestoneMutationResolvers = ({ notes }: ResolverDeps): MutationResolvers => ({
  createLabel: (_p, { projectId, name, color }, { principal }) => {
    requireUser(principal);
    return notes.createLabel(principal, projectId, name, color);
  },
  updateLabel: (_p, { projectId, name, newName, color }, { principal }) => {
    requireUser(principal);
    return notes.updateLabel(principal, projectId, name, { newName, color });
  },
  deleteLabel: (_p, { projectId, name }, { principal }) => {
    requireUser(principal);
    return notes.deleteLabel(principal, projectId, name);
  },
  createMilestone: (_p, { projectId, input }, { principal }) => {
    requireUser(principal);
    return notes.createMilestone(principal, projectId, input);
  },
  updateMilestone: (_p, { projectId, id, input }, { principal }) => {
    requireUser(principal);
    return notes.updateMilestone(principal, projectId, id, input);
  },
});
