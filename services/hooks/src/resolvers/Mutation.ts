import { mutationPayload, requireUser } from '@hub/common';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Every mutation of this subgraph; the services check Master (project hooks) or admin (system hooks) rights. */
export const createMutationResolvers = ({ hooks, systemHooks }: ResolverDeps): MutationResolvers => ({
  createHook: (_p, { input: { clientMutationId, projectId, ...settings } }, { principal }, info) =>
    mutationPayload('hook', { clientMutationId }, info, () => hooks.create(principal, projectId, settings)),
  updateHook: (_p, { input: { clientMutationId, projectId, hookId, ...settings } }, { principal }, info) =>
    mutationPayload('hook', { clientMutationId }, info, () => hooks.update(principal, projectId, hookId, settings)),
  deleteHook: (_p, { input: { clientMutationId, projectId, hookId } }, { principal }, info) =>
    mutationPayload('hook', { clientMutationId }, info, () => hooks.remove(principal, projectId, hookId)),
  resendHookDelivery: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, hookId, hookDeliveryId } = input;
    return mutationPayload('hookDelivery', { clientMutationId }, info, () =>
      hooks.resend(principal, projectId, hookId, hookDeliveryId),
    );
  },
  addSystemHook: (_p, { input: { clientMutationId, url } }, { principal }, info) =>
    mutationPayload('systemHook', { clientMutationId }, info, () => systemHooks.add(principal, url)),
  deleteSystemHook: (_p, { input: { clientMutationId, systemHookId } }, { principal }, info) =>
    mutationPayload('systemHook', { clientMutationId }, info, () => systemHooks.remove(principal, systemHookId)),
  testSystemHook: (_p, { input: { clientMutationId, systemHookId } }, { principal }, info) =>
    mutationPayload('hookDelivery', { clientMutationId }, info, () => systemHooks.test(principal, systemHookId)),
  resendSystemHookDelivery: (_p, { input: { clientMutationId, systemHookId, hookDeliveryId } }, { principal }, info) =>
    mutationPayload('hookDelivery', { clientMutationId }, info, () =>
      systemHooks.resend(principal, systemHookId, hookDeliveryId),
    ),
});
