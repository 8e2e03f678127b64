import {
  AddMemberDocument,
  GetMemberDocument,
  ListMembersDocument,
  RemoveMemberDocument,
  UpdateMemberDocument,
} from '../generated/operations';
import { memberSchema, presentMember } from '../entities/member';
import { payloadEntity } from '../gateway-client';
import { anyOf, mapItems, objectOf } from '../openapi/json-schema';
import { int, PAGE, required, str } from '../param-docs';
import type { Route } from '../route';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

export const memberRoutes: Route[] = [
  {
    method: 'get',
    path: '/projects/:id/members',
    summary: "Lists the project's team: the namespace owner and every member",
    params: { query: str('Part of a username, name or email.'), ...PAGE },
    response: (g) => mapItems(g.select(ListMembersDocument, 'project.members.nodes'), memberSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { project } = await gateway(ListMembersDocument, {
        ...projectKey(p),
        query: p.string('query') ?? null,
        page: window.page,
        perPage: window.perPage,
      });
      if (!project) throw PROJECT_NOT_FOUND();
      return { body: project.members.nodes.map(presentMember), page: { window, total: project.members.total } };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/members/:user_id',
    summary: 'A member of the team',
    response: (g) => memberSchema(g.select(GetMemberDocument, 'project.member')),
    handle: async (p, gateway) => {
      const { project } = await gateway(GetMemberDocument, { ...projectKey(p), userId: p.id('user_id') });
      if (!project) throw PROJECT_NOT_FOUND();
      // GitLab's `find` raised RecordNotFound here, which it answered in this wording.
      if (!project.member) throw RECORD_NOT_FOUND();
      return { body: presentMember(project.member) };
    },
  },
  {
    // Idempotent: a user already in the team keeps the existing membership (and it is returned).
    method: 'post',
    path: '/projects/:id/members',
    summary: 'Adds a member to the team; a member already there keeps the membership',
    params: { user_id: required(int()), access_level: required(int('10, 20, 30, 40 or 50.')) },
    response: (g) => memberSchema(g.select(AddMemberDocument, 'addProjectMember.projectMember')),
    handle: async (p, gateway) => {
      p.require('user_id', 'access_level');
      const { addProjectMember } = await gateway(AddMemberDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          userId: p.int('user_id')!,
          // v3's number as sent: one outside the list gets v3's own 422, which the enum cannot carry.
          v3AccessLevel: p.int('access_level')!,
        },
      });
      return { body: presentMember(payloadEntity(addProjectMember.projectMember)) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/members/:user_id',
    summary: "Changes a team member's access level",
    params: { access_level: required(int('10, 20, 30, 40 or 50.')) },
    response: (g) => memberSchema(g.select(UpdateMemberDocument, 'updateProjectMember.projectMember')),
    handle: async (p, gateway) => {
      p.require('access_level');
      const { updateProjectMember } = await gateway(UpdateMemberDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          userId: p.id('user_id'),
          v3AccessLevel: p.int('access_level')!,
        },
      });
      return { body: presentMember(payloadEntity(updateProjectMember.projectMember)) };
    },
  },
  {
    // Idempotent. GitLab answered the removed membership, or this message for a non-member.
    method: 'delete',
    path: '/projects/:id/members/:user_id',
    summary: 'Removes a member from the team: the removed membership, or a message when there was none',
    response: (g) =>
      anyOf(
        memberSchema(g.select(RemoveMemberDocument, 'removeProjectMember.projectMember')),
        objectOf({
          message: { const: 'Access revoked' },
          id: { type: 'integer', description: 'The user id, as asked.' },
        }),
      ),
    handle: async (p, gateway) => {
      const userId = p.id('user_id');
      const { removeProjectMember } = await gateway(RemoveMemberDocument, {
        input: { projectId: await projectIdOf(p, gateway), userId },
      });
      // A null membership without errors: the user was not a member.
      const removed = removeProjectMember.projectMember;
      return { body: removed ? presentMember(removed) : { message: 'Access revoked', id: userId } };
    },
  },
];
