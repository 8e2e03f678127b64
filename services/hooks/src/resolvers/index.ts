import { pageWindow, requireUser, type Sql } from '@hub/common';
import { findDelivery, listDeliveries } from '../db/deliveries';
import { findHook, listHooks } from '../db/hooks';
import type { Resolvers } from '../generated/graphql';
import type { HooksService } from '../hooks-service';

const headerList = (headers: Record<string, string> | null) => headers && Object.entries(headers).map(([name, value]) => ({ name, value }));

export function createResolvers({ sql, hooks }: { sql: Sql; hooks: HooksService }): Resolvers {
  return {
    Project: {
      __resolveReference: (reference) => ({ id: (reference as { id: number }).id }),
      hooks: async (project, args, { principal }) => {
        await hooks.authorizeAdmin(principal, project.id);
        const { rows, total } = await listHooks(sql, project.id, pageWindow(args.page, args.perPage));
        return { nodes: rows, total };
      },
      hook: async (project, { id }, { principal }) => {
        await hooks.authorizeAdmin(principal, project.id);
        return (await findHook(sql, project.id, id)) ?? null;
      },
    },
    Hook: {
      hasToken: (hook) => hook.token !== null,
      deliveries: async (hook, args) => {
        const { rows, total } = await listDeliveries(sql, hook.id, pageWindow(args.page, args.perPage));
        return { nodes: rows, total };
      },
      delivery: async (hook, { id }) => (await findDelivery(sql, hook.id, id)) ?? null,
    },
    HookDelivery: {
      attempts: (delivery, _args, { loaders }) => loaders.attempts.load(delivery.id),
    },
    HookDeliveryAttempt: {
      requestHeaders: (attempt) => headerList(attempt.requestHeaders) ?? [],
      responseHeaders: (attempt) => headerList(attempt.responseHeaders),
    },
    Mutation: {
      createHook: (_p, { projectId, input }, { principal }) => hooks.create(principal, projectId, input),
      updateHook: (_p, { projectId, id, input }, { principal }) => hooks.update(principal, projectId, id, input),
      deleteHook: (_p, { projectId, id }, { principal }) => hooks.remove(principal, projectId, id),
      resendHookDelivery: (_p, { projectId, hookId, id }, { principal }) => {
        requireUser(principal);
        return hooks.resend(principal, projectId, hookId, id);
      },
    },
  };
}
