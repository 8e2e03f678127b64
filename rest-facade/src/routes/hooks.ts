import {
  CreateHookDocument,
  DeleteHookDocument,
  GetHookDocument,
  HookDeliveriesDocument,
  ListHooksDocument,
  ResendHookDeliveryDocument,
  UpdateHookDocument,
  type CreateHookInput,
} from '../generated/operations';
import { payloadEntity } from '../gateway-client';
import { deliverySchema, hookSchema, presentDelivery, presentHook } from '../entities/hook';
import { anyOf, mapItems, objectOf } from '../openapi/json-schema';
import { bool, PAGE, required, str } from '../param-docs';
import { defined, type Params } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND, v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/** What hookInput reads. */
const HOOK_PARAMS = {
  url: required(str()),
  push_events: bool(),
  tag_push_events: bool(),
  issues_events: bool(),
  merge_requests_events: bool(),
  note_events: bool(),
  token: str('Sent as X-Gitlab-Token with each delivery; empty removes it.'),
};

/** url (required on POST and PUT, as GitLab 7.14's required_attributes!) and the flags sent. */
function hookInput(p: Params): Omit<CreateHookInput, 'projectId'> {
  p.require('url');
  return {
    url: p.string('url')!,
    ...defined({
      pushEvents: p.bool('push_events'),
      tagPushEvents: p.bool('tag_push_events'),
      issuesEvents: p.bool('issues_events'),
      mergeRequestsEvents: p.bool('merge_requests_events'),
      noteEvents: p.bool('note_events'),
      // An empty token removes it; absent keeps it.
      token: p.sentEmpty('token') ? '' : p.string('token'),
    }),
  };
}

export const hookRoutes: Route[] = [
  {
    method: 'get',
    path: '/projects/:id/hooks',
    summary: "Lists the project's hooks",
    params: PAGE,
    response: (g) => mapItems(g.select(ListHooksDocument, 'project.hooks.nodes'), hookSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ListHooksDocument, {
        ...projectKey(p),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: project.hooks.nodes.map(presentHook), page: { window, total: project.hooks.total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/hooks/:hook_id',
    summary: 'A project hook',
    response: (g) => hookSchema(g.select(GetHookDocument, 'project.hook')),
    handle: async (p, gateway) => {
      const { project } = await gateway(GetHookDocument, { ...projectKey(p), hookId: p.id('hook_id') });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.hook) throw RECORD_NOT_FOUND();
      return { body: presentHook(project.hook) };
    },
  },
  {
    method: 'post',
    path: '/projects/:id/hooks',
    summary: 'Adds a hook to the project',
    params: HOOK_PARAMS,
    response: (g) => hookSchema(g.select(CreateHookDocument, 'createHook.hook')),
    handle: async (p, gateway) => {
      const settings = hookInput(p);
      const { createHook } = await gateway(CreateHookDocument, {
        input: { projectId: await projectIdOf(p, gateway), ...settings },
      });
      return { body: presentHook(payloadEntity(createHook.hook)) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/hooks/:hook_id',
    summary: 'Changes a project hook',
    params: HOOK_PARAMS,
    response: (g) => hookSchema(g.select(UpdateHookDocument, 'updateHook.hook')),
    handle: async (p, gateway) => {
      const settings = hookInput(p);
      const { updateHook } = await gateway(UpdateHookDocument, {
        input: { projectId: await projectIdOf(p, gateway), hookId: p.id('hook_id'), ...settings },
      });
      return { body: presentHook(payloadEntity(updateHook.hook)) };
    },
  },
  {
    // Idempotent: the removed hook, or (the spec's "empty response") {} when there was none;
    // an empty object rather than no body, so clients that parse every answer as JSON still can.
    method: 'delete',
    path: '/projects/:id/hooks/:hook_id',
    summary: 'Removes a project hook: the removed hook, or {} when there was none',
    response: (g) => anyOf(hookSchema(g.select(DeleteHookDocument, 'deleteHook.hook')), objectOf({})),
    handle: async (p, gateway) => {
      const { deleteHook } = await gateway(DeleteHookDocument, {
        input: { projectId: await projectIdOf(p, gateway), hookId: p.id('hook_id') },
      });
      // A null hook without errors: there was none, which the idempotent DELETE answers with {}.
      return { body: deleteHook.hook ? presentHook(deleteHook.hook) : {} };
    },
  },
  {
    // GitLab answered 405 for a DELETE without a hook id.
    method: 'delete',
    path: '/projects/:id/hooks',
    summary: 'Always 405: a hook is removed by its id',
    handle: async () => {
      throw v3Error(405, '405 Method Not Allowed');
    },
  },
  {
    // The delivery log, newest first; the path later GitLab versions use for hook logs.
    method: 'get',
    path: '/projects/:id/hooks/:hook_id/events',
    summary: "The hook's delivery log, newest first",
    params: PAGE,
    response: (g) => mapItems(g.select(HookDeliveriesDocument, 'project.hook.deliveries.nodes'), deliverySchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(HookDeliveriesDocument, {
        ...projectKey(p),
        hookId: p.id('hook_id'),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.hook) throw RECORD_NOT_FOUND();
      return {
        body: project.hook.deliveries.nodes.map(presentDelivery),
        page: { window, total: project.hook.deliveries.total },
      };
    },
  },
  {
    method: 'post',
    path: '/projects/:id/hooks/:hook_id/events/:event_id/resend',
    summary: 'Delivers a logged event again',
    response: (g) => deliverySchema(g.select(ResendHookDeliveryDocument, 'resendHookDelivery.hookDelivery')),
    handle: async (p, gateway) => {
      const { resendHookDelivery } = await gateway(ResendHookDeliveryDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          hookId: p.id('hook_id'),
          hookDeliveryId: p.id('event_id'),
        },
      });
      return { body: presentDelivery(payloadEntity(resendHookDelivery.hookDelivery)) };
    },
  },
];
