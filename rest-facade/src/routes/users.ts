import {
  BlockUserDocument,
  CreateUserDocument,
  CurrentUserDocument,
  DeleteUserDocument,
  GetUserDocument,
  ListUsersDocument,
  UnblockUserDocument,
  UpdateUserDocument,
} from '../generated/operations';
import {
  presentUser,
  presentUserFull,
  presentUserLogin,
  userForViewerSchema,
  userFullSchema,
  userLoginSchema,
} from '../entities/user';
import { payloadEntity } from '../gateway-client';
import { anyOf, mapItems, objectOf } from '../openapi/json-schema';
import { bool, int, PAGE, required, str } from '../param-docs';
import { defined, type Params } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND, UNAUTHORIZED } from '../v3-errors';

/** The attributes POST and PUT /users accept (GitLab 7.14's list). */
const USER_PARAMS = {
  email: str(),
  password: str(),
  username: str(),
  name: str(),
  admin: bool('Whether the user is an administrator.'),
  bio: str(),
  skype: str(),
  linkedin: str(),
  twitter: str(),
  website_url: str(),
  projects_limit: int(),
  can_create_group: bool(),
  extern_uid: str('The user id at an external identity provider.'),
  provider: str('The external identity provider.'),
};

/** The attributes POST and PUT /users accept, as GraphQL input. */
const userInput = (p: Params) =>
  defined({
    email: p.string('email'),
    password: p.string('password'),
    username: p.string('username'),
    name: p.string('name'),
    isAdmin: p.bool('admin'),
    bio: p.string('bio'),
    skype: p.string('skype'),
    linkedin: p.string('linkedin'),
    twitter: p.string('twitter'),
    websiteUrl: p.string('website_url'),
    projectsLimit: p.int('projects_limit'),
    canCreateGroup: p.bool('can_create_group'),
    externUid: p.string('extern_uid'),
    provider: p.string('provider'),
  });

export const userRoutes: Route[] = [
  {
    method: 'get',
    path: '/user',
    summary: "The caller's own account, with its private token",
    response: (g) => userLoginSchema(g.select(CurrentUserDocument, 'viewer')),
    handle: async (_p, gateway) => {
      const { viewer } = await gateway(CurrentUserDocument, {});
      if (!viewer) throw UNAUTHORIZED();
      return { body: presentUserLogin(viewer) };
    },
  },
  {
    method: 'get',
    path: '/users',
    summary: 'Lists users (every field to admins, the public profile to others)',
    params: {
      search: str('Part of a username, name or email.'),
      username: str('Exactly this username.'),
      active: bool(),
      blocked: bool(),
      ...PAGE,
    },
    response: (g) => mapItems(g.select(ListUsersDocument, 'users.nodes'), userForViewerSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { viewer, users } = await gateway(ListUsersDocument, {
        search: p.string('search') ?? null,
        username: p.string('username') ?? null,
        active: p.bool('active') ?? null,
        blocked: p.bool('blocked') ?? null,
        page: window.page,
        perPage: window.perPage,
      });
      const admin = viewer?.is_admin ?? false;
      return { body: users.nodes.map((user) => presentUser(user, admin)), page: { window, total: users.total } };
    },
  },
  {
    method: 'get',
    path: '/users/:id',
    summary: 'A user (every field to admins, the public profile to others)',
    response: (g) => userForViewerSchema(g.select(GetUserDocument, 'user')),
    handle: async (p, gateway) => {
      const { viewer, user } = await gateway(GetUserDocument, { id: p.id('id') });
      // GitLab 7.14: User.find, so RecordNotFound's answer.
      if (!user) throw RECORD_NOT_FOUND();
      return { body: presentUser(user, viewer?.is_admin ?? false) };
    },
  },
  {
    method: 'post',
    path: '/users',
    summary: 'Creates a user (admins only)',
    params: {
      ...USER_PARAMS,
      email: required(str()),
      password: required(str()),
      name: required(str()),
      username: required(str()),
    },
    response: (g) => userFullSchema(g.select(CreateUserDocument, 'createUser.user')),
    handle: async (p, gateway) => {
      p.require('email', 'password', 'name', 'username');
      const required = {
        email: p.string('email')!,
        password: p.string('password')!,
        name: p.string('name')!,
        username: p.string('username')!,
      };
      const { createUser } = await gateway(CreateUserDocument, { input: { ...userInput(p), ...required } });
      return { body: presentUserFull(payloadEntity(createUser.user)) };
    },
  },
  {
    method: 'put',
    path: '/users/:id',
    summary: 'Changes a user (admins, or the user themselves)',
    params: USER_PARAMS,
    response: (g) => userFullSchema(g.select(UpdateUserDocument, 'updateUser.user')),
    handle: async (p, gateway) => {
      const { updateUser } = await gateway(UpdateUserDocument, { input: { userId: p.id('id'), ...userInput(p) } });
      return { body: presentUserFull(payloadEntity(updateUser.user)) };
    },
  },
  {
    // The spec makes DELETE idempotent: a user that is already gone is a 200 as well.
    method: 'delete',
    path: '/users/:id',
    summary: 'Deletes a user (admins only): the deleted user, or {} when there was none',
    response: (g) => anyOf(userFullSchema(g.select(DeleteUserDocument, 'deleteUser.user')), objectOf({})),
    handle: async (p, gateway) => {
      const { deleteUser } = await gateway(DeleteUserDocument, { input: { userId: p.id('id') } });
      // A null user without errors: there was none, which the idempotent DELETE answers with {}.
      return { body: deleteUser.user ? presentUserFull(deleteUser.user) : {} };
    },
  },
  {
    // GitLab 7.x answered these with `true`.
    method: 'put',
    path: '/users/:id/block',
    summary: 'Blocks a user (admins only)',
    response: () => ({ const: true }),
    handle: async (p, gateway) => {
      payloadEntity((await gateway(BlockUserDocument, { input: { userId: p.id('id') } })).blockUser.user);
      return { body: true };
    },
  },
  {
    method: 'put',
    path: '/users/:id/unblock',
    summary: 'Unblocks a user (admins only)',
    response: () => ({ const: true }),
    handle: async (p, gateway) => {
      payloadEntity((await gateway(UnblockUserDocument, { input: { userId: p.id('id') } })).unblockUser.user);
      return { body: true };
    },
  },
];
