import {
  AddMemberDocument,
  GetMemberDocument,
  ListMembersDocument,
  RemoveMemberDocument,
  UpdateMemberDocument,
} from '../generated/operations';
import { presentMember } from '../entities/member';
import type { Route } from '../route';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectIdOf, projectKey } from './project-key';

export const memberRoutes: Route[] = [
  {
    method: 'get',
    path: '/projects/:id/members',
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
    handle: async (p, gateway) => {
      p.require('user_id', 'access_level');
      const { addProjectMember } = await gateway(AddMemberDocument, {
        projectId: await projectIdOf(p, gateway),
        userId: p.int('user_id')!,
        accessLevel: p.int('access_level')!,
      });
      return { body: presentMember(addProjectMember) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/members/:user_id',
    handle: async (p, gateway) => {
      p.require('access_level');
      const { updateProjectMember } = await gateway(UpdateMemberDocument, {
        projectId: await projectIdOf(p, gateway),
        userId: p.id('user_id'),
        accessLevel: p.int('access_level')!,
      });
      return { body: presentMember(updateProjectMember) };
    },
  },
  {
    // Idempotent. GitLab answered the removed membership, or this message for a non-member.
    method: 'delete',
    path: '/projects/:id/members/:user_id',
    handle: async (p, gateway) => {
      const { removeProjectMember } = await gateway(RemoveMemberDocument, {
        projectId: await projectIdOf(p, gateway),
        userId: p.id('user_id'),
      });
      const { removed, userId } = removeProjectMember;
      return { body: removed ? presentMember(removed) : { message: 'Access revoked', id: userId } };
    },
  },
];
