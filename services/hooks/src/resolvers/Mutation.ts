import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Every mutation of this subgraph; the services check Master (project hooks) or admin (system hooks) rights. */
export const createMutationResolvers = ({ hooks, systemHooks }: ResolverDeps): MutationResolvers => ({
  createHook: (_p, { projectId, input }, { principal }) => hooks.create(principal, projectId, input),
  updateHook: (_p, { projectId, id, input }, { principal }) => hooks.update(principal, projectId, id, input),
  deleteHook: (_p, { projectId, id }, { principal }) => hooks.remove(principal, projectId, id),
  resendHookDelivery: (_p, { projectId, hookId, id }, { principal }) => {
    requireUser(principal);
    return hooks.resend(principal, projectId, hookId, id);
  },
  addSystemHook: (_p, { url }, { principal }) => systemHooks.add(principal, url),
  deleteSystemHook: (_p, { id }, { principal }) => systemHooks.remove(principal, id),
  testSystemHook: (_p, { id }, { principal }) => systemHooks.test(principal, id),
  resendSystemHookDelivery: (_p, { hookId, id }, { principal }) => systemHooks.resend(principal, hookId, id),
});
