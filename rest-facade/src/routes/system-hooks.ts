import { deliverySchema, presentDelivery } from '../entities/hook';
import { presentSystemHook, systemHookSchema } from '../entities/system-hook';
import { anyOf, mapItems } from '../openapi/json-schema';
import { PAGE, required, str } from '../param-docs';
import {
  AddSystemHookDocument,
  DeleteSystemHookDocument,
  ListSystemHooksDocument,
  ResendSystemHookDeliveryDocument,
  SystemHookDeliveriesDocument,
  TestSystemHookDocument,
} from '../generated/operations';
import { payloadEntity, type GatewayCall } from '../gateway-client';
import type { Params } from '../params';
import type { Route } from '../route';
import { NOT_FOUND, RECORD_NOT_FOUND, V3Error } from '../v3-errors';

/** GitLab's before block ran first: anyone but an admin is refused before any other answer. */
const requireAdmin = (gateway: GatewayCall) => gateway(ListSystemHooksDocument, { page: 1, perPage: 1 });

/** The hook id of the path, or null when it can name no hook (after the admin check). */
async function hookIdOf(p: Params, gateway: GatewayCall, name = 'id'): Promise<number | null> {
  try {
    return p.id(name);
  } catch {
    await requireAdmin(gateway);
    return null;
  }
}

/**
 * GitLab 7.14's lib/api/system_hooks.rb: admins only (401 without credentials, 403 for anyone
 * else, before any other answer). `/hooks` is its own path, apart from `/projects/:id/hooks`.
 */
export const systemHookRoutes: Route[] = [
  {
    method: 'get',
    path: '/hooks',
    summary: 'Lists the system hooks',
    params: PAGE,
    response: (g) => mapItems(g.select(ListSystemHooksDocument, 'systemHooks.nodes'), systemHookSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { systemHooks } = await gateway(ListSystemHooksDocument, { page: window.page, perPage: window.perPage });
      return { body: systemHooks.nodes.map(presentSystemHook), page: { window, total: systemHooks.total } };
    },
  },
  {
    method: 'post',
    path: '/hooks',
    summary: 'Adds a system hook; 404 for an invalid url, as GitLab answered',
    params: { url: required(str()) },
    response: (g) => systemHookSchema(g.select(AddSystemHookDocument, 'addSystemHook.systemHook')),
    handle: async (p, gateway) => {
      let url: string;
      try {
        p.require('url');
        url = p.string('url')!;
      } catch (error) {
        // GitLab checked for an admin before required_attributes!: a non-admin is 403 whatever
        // the url (missing, blank, an array); the mutation checks a url that reads.
        await requireAdmin(gateway);
        throw error;
      }
      try {
        const { addSystemHook } = await gateway(AddSystemHookDocument, { input: { url } });
        return { body: presentSystemHook(payloadEntity(addSystemHook.systemHook)) };
      } catch (error) {
        // A hook that did not save (an invalid url) was GitLab 7.14's not_found!.
        if (error instanceof V3Error && error.status === 422 && error.message === 'Invalid url given')
          throw NOT_FOUND();
        throw error;
      }
    },
  },
  {
    // Not a read: GitLab 7.14 sent its sample project_create to the hook and answered with it.
    method: 'get',
    path: '/hooks/:id',
    summary: 'Tests a system hook: sends it a sample project_create event and answers that event',
    response: () => ({ type: 'object', description: 'The sample event, as delivered.' }),
    handle: async (p, gateway) => {
      const id = await hookIdOf(p, gateway);
      if (id === null) throw RECORD_NOT_FOUND();
      const { testSystemHook } = await gateway(TestSystemHookDocument, { input: { systemHookId: id } });
      return { body: JSON.parse(payloadEntity(testSystemHook.hookDelivery).payload) as unknown };
    },
  },
  {
    // Idempotent, 200 either way: the removed hook, or null (GitLab rescued the missing hook's error
    // and returned nil, which Grape sent as `null`).
    method: 'delete',
    path: '/hooks/:id',
    summary: 'Removes a system hook: the removed hook, or null when there was none',
    response: (g) =>
      anyOf(systemHookSchema(g.select(DeleteSystemHookDocument, 'deleteSystemHook.systemHook')), { type: 'null' }),
    handle: async (p, gateway) => {
      const id = await hookIdOf(p, gateway);
      if (id === null) return { body: null };
      const { deleteSystemHook } = await gateway(DeleteSystemHookDocument, { input: { systemHookId: id } });
      // A null hook without errors: there was none, answered with null as GitLab did.
      return { body: deleteSystemHook.systemHook ? presentSystemHook(deleteSystemHook.systemHook) : null };
    },
  },
  {
    // The delivery log, newest first, at the path project hooks' log has.
    method: 'get',
    path: '/hooks/:id/events',
    summary: "The system hook's delivery log, newest first",
    params: PAGE,
    response: (g) => mapItems(g.select(SystemHookDeliveriesDocument, 'systemHook.deliveries.nodes'), deliverySchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const id = await hookIdOf(p, gateway);
      if (id === null) throw RECORD_NOT_FOUND();
      const { systemHook } = await gateway(SystemHookDeliveriesDocument, {
        id,
        page: window.page,
        perPage: window.perPage,
      });
      if (!systemHook) throw RECORD_NOT_FOUND();
      return {
        body: systemHook.deliveries.nodes.map(presentDelivery),
        page: { window, total: systemHook.deliveries.total },
      };
    },
  },
  {
    method: 'post',
    path: '/hooks/:id/events/:event_id/resend',
    summary: 'Delivers a logged event again',
    response: (g) =>
      deliverySchema(g.select(ResendSystemHookDeliveryDocument, 'resendSystemHookDelivery.hookDelivery')),
    handle: async (p, gateway) => {
      const hookId = await hookIdOf(p, gateway);
      const id = await hookIdOf(p, gateway, 'event_id');
      if (hookId === null || id === null) throw RECORD_NOT_FOUND();
      const { resendSystemHookDelivery } = await gateway(ResendSystemHookDeliveryDocument, {
        input: { systemHookId: hookId, hookDeliveryId: id },
      });
      return { body: presentDelivery(payloadEntity(resendSystemHookDelivery.hookDelivery)) };
    },
  },
];
