import {
  AddGroupMemberDocument,
  CreateGroupDocument,
  DeleteGroupDocument,
  GetGroupDocument,
  GetGroupMemberDocument,
  FindGroupDocument,
  ListGroupMembersDocument,
  ListGroupsDocument,
  RemoveGroupMemberDocument,
  TransferProjectToGroupDocument,
  UpdateGroupMemberDocument,
} from '../generated/operations';
import { groupMemberSchema, presentGroupMember } from '../entities/group';
import { presentProject, projectSchema } from '../entities/project';
import { mapItems, propertyOf, withProperties } from '../openapi/json-schema';
import { int, PAGE, PROJECT_REF, required, str } from '../param-docs';
import { payloadEntity, type GatewayCall } from '../gateway-client';
import type { Params } from '../params';
import type { Route } from '../route';
import { RECORD_NOT_FOUND } from '../v3-errors';
import { projectIdOf } from './project-key';

/**
 * GitLab 7.14's find_group: `:id` is an id, else a path (a group named "42" is found by path when
 * no group has id 42). Unknown: 404 "404 Not found"; not visible: 403 from the graph.
 */
function groupKey(p: Params): { id: number | null; path: string } {
  const raw = p.string('id') ?? '';
  const id = /^\d{1,10}$/.test(raw) && Number(raw) <= 2 ** 31 - 1 ? Number(raw) : null;
  return { id, path: raw };
}

async function findGroup(p: Params, gateway: GatewayCall) {
  const { group } = await gateway(FindGroupDocument, groupKey(p));
  if (!group) throw RECORD_NOT_FOUND();
  return group;
}

const groupIdOf = async (p: Params, gateway: GatewayCall) => (await findGroup(p, gateway)).id;

// GitLab 7.14 showed every project of the group in GET /groups/:id, unpaginated; this shows the
// first 100 the caller may see (the largest page the API gives anywhere).
const GROUP_PROJECTS_SHOWN = 100;

export const groupRoutes: Route[] = [
  {
    method: 'get',
    path: '/groups',
    summary: 'Lists the groups the caller may see (admins: all)',
    params: { search: str(), ...PAGE },
    response: (g) => g.select(ListGroupsDocument, 'groups.nodes'),
    handle: async (p, gateway) => {
      const window = p.window();
      const { groups } = await gateway(ListGroupsDocument, {
        search: p.string('search') || null,
        page: window.page,
        perPage: window.perPage,
      });
      return { body: groups.nodes, page: { window, total: groups.total } };
    },
  },
  {
    method: 'post',
    path: '/groups',
    summary: 'Creates a group',
    params: { name: required(str()), path: required(str()), description: str() },
    response: (g) => g.select(CreateGroupDocument, 'createGroup.group'),
    handle: async (p, gateway) => {
      p.require('name', 'path');
      const { createGroup } = await gateway(CreateGroupDocument, {
        input: {
          name: p.string('name')!,
          path: p.string('path')!,
          description: p.string('description') ?? null,
        },
      });
      return { body: payloadEntity(createGroup.group) };
    },
  },
  {
    method: 'get',
    path: '/groups/:id',
    summary: 'A group, with the first 100 of its projects the caller may see',
    response: (g) => {
      const group = g.select(GetGroupDocument, 'group');
      const projects = propertyOf(propertyOf(group, 'projects'), 'nodes');
      return withProperties(group, { projects: mapItems(projects, projectSchema) });
    },
    handle: async (p, gateway) => {
      const { group } = await gateway(GetGroupDocument, { ...groupKey(p), perPage: GROUP_PROJECTS_SHOWN });
      if (!group) throw RECORD_NOT_FOUND();
      const { projects, ...fields } = group;
      return { body: { ...fields, projects: projects.nodes.map(presentProject) } };
    },
  },
  {
    // GitLab 7.14 destroyed the group's projects with it.
    method: 'delete',
    path: '/groups/:id',
    summary: 'Deletes a group and its projects',
    response: (g) => g.select(DeleteGroupDocument, 'deleteGroup.group'),
    handle: async (p, gateway) => {
      const { deleteGroup } = await gateway(DeleteGroupDocument, { input: { groupId: await groupIdOf(p, gateway) } });
      return { body: payloadEntity(deleteGroup.group) };
    },
  },
  {
    // Admins only; 7.14 answered the group.
    method: 'post',
    path: '/groups/:id/projects/:project_id',
    summary: 'Moves a project into the group (admins only)',
    params: { project_id: PROJECT_REF },
    response: (g) => g.select(FindGroupDocument, 'group'),
    handle: async (p, gateway) => {
      const group = await findGroup(p, gateway);
      await gateway(TransferProjectToGroupDocument, {
        input: { projectId: await projectIdOf(p, gateway, 'project_id'), groupId: group.id },
      });
      return { body: group };
    },
  },
  {
    method: 'get',
    path: '/groups/:id/members',
    summary: "Lists the group's members",
    params: PAGE,
    response: (g) => mapItems(g.select(ListGroupMembersDocument, 'group.members.nodes'), groupMemberSchema),
    handle: async (p, gateway) => {
      const window = p.window();
      const { group } = await gateway(ListGroupMembersDocument, {
        ...groupKey(p),
        page: window.page,
        perPage: window.perPage,
      });
      if (!group) throw RECORD_NOT_FOUND();
      return { body: group.members.nodes.map(presentGroupMember), page: { window, total: group.members.total } };
    },
  },
  {
    // Not in 7.14 (later GitLab had it); answered like the project team's single member.
    method: 'get',
    path: '/groups/:id/members/:user_id',
    summary: 'A member of the group',
    response: (g) => groupMemberSchema(g.select(GetGroupMemberDocument, 'group.member')),
    handle: async (p, gateway) => {
      const { group } = await gateway(GetGroupMemberDocument, { ...groupKey(p), userId: p.id('user_id') });
      if (!group?.member) throw RECORD_NOT_FOUND();
      return { body: presentGroupMember(group.member) };
    },
  },
  {
    method: 'post',
    path: '/groups/:id/members',
    summary: 'Adds a member to the group',
    params: { user_id: required(int()), access_level: required(int('10, 20, 30, 40 or 50.')) },
    response: (g) => groupMemberSchema(g.select(AddGroupMemberDocument, 'addGroupMember.groupMember')),
    handle: async (p, gateway) => {
      const groupId = await groupIdOf(p, gateway);
      p.require('user_id', 'access_level');
      const { addGroupMember } = await gateway(AddGroupMemberDocument, {
        input: {
          groupId,
          userId: p.int('user_id')!,
          // v3's number as sent: one outside the list gets v3's own 422, which the enum cannot carry.
          v3AccessLevel: p.int('access_level')!,
        },
      });
      return { body: presentGroupMember(payloadEntity(addGroupMember.groupMember)) };
    },
  },
  {
    method: 'put',
    path: '/groups/:id/members/:user_id',
    summary: "Changes a group member's access level",
    params: { access_level: required(int('10, 20, 30, 40 or 50.')) },
    response: (g) => groupMemberSchema(g.select(UpdateGroupMemberDocument, 'updateGroupMember.groupMember')),
    handle: async (p, gateway) => {
      const groupId = await groupIdOf(p, gateway);
      p.require('access_level');
      const { updateGroupMember } = await gateway(UpdateGroupMemberDocument, {
        input: { groupId, userId: p.id('user_id'), v3AccessLevel: p.int('access_level')! },
      });
      return { body: presentGroupMember(payloadEntity(updateGroupMember.groupMember)) };
    },
  },
  {
    method: 'delete',
    path: '/groups/:id/members/:user_id',
    summary: 'Removes a member from the group',
    response: (g) => groupMemberSchema(g.select(RemoveGroupMemberDocument, 'removeGroupMember.groupMember')),
    handle: async (p, gateway) => {
      const groupId = await groupIdOf(p, gateway);
      const { removeGroupMember } = await gateway(RemoveGroupMemberDocument, {
        input: { groupId, userId: p.id('user_id') },
      });
      return { body: presentGroupMember(payloadEntity(removeGroupMember.groupMember)) };
    },
  },
];
