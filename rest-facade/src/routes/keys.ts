import {
  AddDeployKeyDocument,
  CreateSshKeyDocument,
  DeleteSshKeyDocument,
  GetDeployKeyDocument,
  GetOwnKeyDocument,
  ListDeployKeysDocument,
  ListOwnKeysDocument,
  ListUserKeysDocument,
  RemoveDeployKeyDocument,
  type V3SshKeyFragment,
} from '../generated/operations';
import { keySchema, presentKey } from '../entities/key';
import { anyOf, mapItems, objectOf, type JsonSchema } from '../openapi/json-schema';
import { PAGE, str } from '../param-docs';
import { payloadEntity } from '../gateway-client';
import type { Params } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND, UNAUTHORIZED, v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

/** title and key as sent; identity says what is missing or invalid, in GitLab's words and order. */
const keyInput = (p: Params) => ({ title: p.string('title') ?? null, key: p.string('key') ?? null });

/**
 * An id read leniently: one that is not a number names nothing (0 never does). For a user id of
 * the admin routes GitLab checked admin rights before looking the user up, so a bad id is
 * answered after that check, not before; a bad key id in a DELETE is a key that is not there,
 * which the idempotent DELETE answers with {} (after the caller's rights, as for any key).
 */
const lenientId = (p: Params, name: string) => {
  try {
    return p.id(name);
  } catch {
    return 0;
  }
};

/** Deleting is idempotent (the spec's DELETE rule): the removed key, or {} when there was none. */
const removed = (key: V3SshKeyFragment | null) => (key ? presentKey(key) : {});
const removedSchema = (key: JsonSchema) => anyOf(keySchema(key), objectOf({}));

const KEY_PARAMS = { title: str('Required.'), key: str('Required: the public key, as in authorized_keys.') };

/**
 * SSH keys (GitLab 7.14's users.rb) and deploy keys (deploy_keys.rb). Lists are paginated, as every
 * v3 list here is (GitLab 7.14 sent these whole). Keys are stored and listed only: no SSH server
 * serves git with them yet.
 */
export const keyRoutes: Route[] = [
  {
    method: 'get',
    path: '/user/keys',
    summary: "Lists the caller's SSH keys",
    params: PAGE,
    response: (g) => mapItems(g.select(ListOwnKeysDocument, 'viewer.keys.nodes'), keySchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { viewer } = await gateway(ListOwnKeysDocument, { page: window.page, perPage: window.perPage });
      if (!viewer?.keys) throw UNAUTHORIZED();
      return { body: viewer.keys.nodes.map(presentKey), page: { window, total: viewer.keys.total } };
    },
  },
  {
    method: 'get',
    path: '/user/keys/:id',
    summary: "One of the caller's SSH keys",
    response: (g) => keySchema(g.select(GetOwnKeyDocument, 'viewer.key')),
    handle: async (p, gateway) => {
      const { viewer } = await gateway(GetOwnKeyDocument, { id: p.id('id') });
      if (!viewer) throw UNAUTHORIZED();
      // current_user.keys.find: RecordNotFound's answer, also for another user's key.
      if (!viewer.key) throw RECORD_NOT_FOUND();
      return { body: presentKey(viewer.key) };
    },
  },
  {
    method: 'post',
    path: '/user/keys',
    summary: 'Adds an SSH key to the caller',
    params: KEY_PARAMS,
    response: (g) => keySchema(g.select(CreateSshKeyDocument, 'createSshKey.sshKey')),
    handle: async (p, gateway) => {
      const { createSshKey } = await gateway(CreateSshKeyDocument, { input: { userId: null, ...keyInput(p) } });
      return { body: presentKey(payloadEntity(createSshKey.sshKey)) };
    },
  },
  {
    method: 'delete',
    path: '/user/keys/:id',
    summary: "Removes one of the caller's SSH keys: the removed key, or {} when there was none",
    response: (g) => removedSchema(g.select(DeleteSshKeyDocument, 'deleteSshKey.sshKey')),
    handle: async (p, gateway) => {
      const { deleteSshKey } = await gateway(DeleteSshKeyDocument, {
        input: { userId: null, sshKeyId: lenientId(p, 'id') },
      });
      return { body: removed(deleteSshKey.sshKey) };
    },
  },
  {
    // Admins only (403 for everyone else, whatever the id), then 404 User Not Found.
    method: 'get',
    path: '/users/:uid/keys',
    summary: "Lists a user's SSH keys (admins only)",
    params: PAGE,
    response: (g) => mapItems(g.select(ListUserKeysDocument, 'user.keys.nodes'), keySchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { viewer, user } = await gateway(ListUserKeysDocument, {
        userId: lenientId(p, 'uid'),
        page: window.page,
        perPage: window.perPage,
      });
      if (!viewer) throw UNAUTHORIZED();
      if (!viewer.is_admin) throw v3Error(403, '403 Forbidden');
      if (!user?.keys) throw v3Error(404, '404 User Not Found');
      return { body: user.keys.nodes.map(presentKey), page: { window, total: user.keys.total } };
    },
  },
  {
    // :uid as in its GET: two names for one place in the path would be two paths to a client.
    method: 'post',
    path: '/users/:uid/keys',
    summary: 'Adds an SSH key to a user (admins only)',
    params: KEY_PARAMS,
    response: (g) => keySchema(g.select(CreateSshKeyDocument, 'createSshKey.sshKey')),
    handle: async (p, gateway) => {
      const { createSshKey } = await gateway(CreateSshKeyDocument, {
        input: { userId: lenientId(p, 'uid'), ...keyInput(p) },
      });
      return { body: presentKey(payloadEntity(createSshKey.sshKey)) };
    },
  },
  {
    method: 'delete',
    path: '/users/:uid/keys/:id',
    summary: "Removes a user's SSH key (admins only): the removed key, or {} when there was none",
    response: (g) => removedSchema(g.select(DeleteSshKeyDocument, 'deleteSshKey.sshKey')),
    handle: async (p, gateway) => {
      const { deleteSshKey } = await gateway(DeleteSshKeyDocument, {
        input: { userId: lenientId(p, 'uid'), sshKeyId: lenientId(p, 'id') },
      });
      return { body: removed(deleteSshKey.sshKey) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/keys',
    summary: "Lists the project's deploy keys",
    params: PAGE,
    response: (g) => mapItems(g.select(ListDeployKeysDocument, 'project.deployKeys.nodes'), keySchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ListDeployKeysDocument, {
        ...projectKey(p),
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: project.deployKeys.nodes.map(presentKey), page: { window, total: project.deployKeys.total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/keys/:key_id',
    summary: 'A deploy key of the project',
    response: (g) => keySchema(g.select(GetDeployKeyDocument, 'project.deployKey')),
    handle: async (p, gateway) => {
      const { project } = await gateway(GetDeployKeyDocument, { ...projectKey(p), keyId: p.id('key_id') });
      if (!project) throw PROJECT_NOT_FOUND();
      if (!project.deployKey) throw RECORD_NOT_FOUND();
      return { body: presentKey(project.deployKey) };
    },
  },
  {
    // 201 with the key, also when it was one the project (or another of the caller's) had already.
    method: 'post',
    path: '/projects/:id/keys',
    summary: 'Adds a deploy key to the project (also one it, or another of the caller, had already)',
    params: KEY_PARAMS,
    response: (g) => keySchema(g.select(AddDeployKeyDocument, 'addDeployKey.sshKey')),
    handle: async (p, gateway) => {
      const { addDeployKey } = await gateway(AddDeployKeyDocument, {
        input: { projectId: await projectIdOf(p, gateway), ...keyInput(p) },
      });
      return { body: presentKey(payloadEntity(addDeployKey.sshKey)) };
    },
  },
  {
    method: 'delete',
    path: '/projects/:id/keys/:key_id',
    summary: 'Removes a deploy key from the project: the removed key, or {} when there was none',
    response: (g) => removedSchema(g.select(RemoveDeployKeyDocument, 'removeDeployKey.sshKey')),
    handle: async (p, gateway) => {
      const { removeDeployKey } = await gateway(RemoveDeployKeyDocument, {
        input: { projectId: await projectIdOf(p, gateway), sshKeyId: lenientId(p, 'key_id') },
      });
      return { body: removed(removeDeployKey.sshKey) };
    },
  },
];
