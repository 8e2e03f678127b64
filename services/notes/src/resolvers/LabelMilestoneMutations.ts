import { mutationPayload, requireUser } from '@hub/common';
import type { MilestoneStateEvent, MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** The milestone service's words for the public state events. */
const MILESTONE_STATE_EVENTS: Record<MilestoneStateEvent, string> = { CLOSE: 'close', ACTIVATE: 'activate' };

/** Label and milestone mutations: signed-in users only; the service decides the rest. */
export const createLabelMilestoneMutationResolvers = ({ notes }: ResolverDeps): MutationResolvers => ({
  createLabel: (_p, { input: { clientMutationId, projectId, name, color } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('label', { clientMutationId }, info, () =>
      notes.createLabel(principal, projectId, name, color),
    );
  },
  updateLabel: (_p, { input: { clientMutationId, projectId, name, newName, color } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('label', { clientMutationId }, info, () =>
      notes.updateLabel(principal, projectId, name, { newName, color }),
    );
  },
  deleteLabel: (_p, { input: { clientMutationId, projectId, name } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('label', { clientMutationId }, info, () => notes.deleteLabel(principal, projectId, name));
  },
  createMilestone: (_p, { input: { clientMutationId, projectId, ...milestone } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('milestone', { clientMutationId }, info, () =>
      notes.createMilestone(principal, projectId, milestone),
    );
  },
  updateMilestone: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, milestoneId, stateEvent, ...changes } = input;
    return mutationPayload('milestone', { clientMutationId }, info, () =>
      notes.updateMilestone(principal, projectId, milestoneId, {
        ...changes,
        stateEvent: stateEvent ? MILESTONE_STATE_EVENTS[stateEvent] : null,
      }),
    );
  },
});
