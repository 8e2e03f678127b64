import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Every mutation of this subgraph: signed-in users only; the service decides the rest. */
export const createMutationResolvers = ({ mergeRequests }: ResolverDeps): MutationResolvers => ({
  createMergeRequest: (_p, { projectId, input }, { principal }) => {
    requireUser(principal);
    return mergeRequests.create(principal, projectId, input);
  },
  updateMergeRequest: (_p, { projectId, id, input }, { principal }) => {
    requireUser(principal);
    return mergeRequests.update(principal, projectId, id, input);
  },
  acceptMergeRequest: (_p, { projectId, id, mergeCommitMessage }, { principal }) => {
    requireUser(principal);
    return mergeRequests.accept(principal, projectId, id, mergeCommitMessage);
  },
});
