import { mutationPayload, requireUser } from '@hub/common';
import type { MergeRequestStateEvent, MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** The merge request service's words for the public state events. */
const STATE_EVENTS: Record<MergeRequestStateEvent, string> = { CLOSE: 'close', REOPEN: 'reopen', MERGE: 'merge' };

/** Every mutation of this subgraph: signed-in users only; the service decides the rest. */
export const createMutationResolvers = ({ mergeRequests }: ResolverDeps): MutationResolvers => ({
  createMergeRequest: (_p, { input: { clientMutationId, projectId, ...mergeRequest } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('mergeRequest', { clientMutationId }, info, () =>
      mergeRequests.create(principal, projectId, mergeRequest),
    );
  },
  updateMergeRequest: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, mergeRequestId, stateEvent, v3StateEvent, ...changes } = input;
    return mutationPayload('mergeRequest', { clientMutationId }, info, () =>
      mergeRequests.update(principal, projectId, mergeRequestId, {
        ...changes,
        stateEvent: v3StateEvent ?? (stateEvent ? STATE_EVENTS[stateEvent] : null),
      }),
    );
  },
  acceptMergeRequest: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, mergeRequestId, mergeCommitMessage } = input;
    return mutationPayload('mergeRequest', { clientMutationId }, info, () =>
      mergeRequests.accept(principal, projectId, mergeRequestId, mergeCommitMessage),
    );
  },
});
