import {
  addMember,
  api,
  createProject,
  createUser,
  graphql,
  stack,
  unique,
  type TestProject,
  type TestUser,
} from '../support/api';

/**
 * The permission matrix: every operation of this issue, tried as each kind of user on a private
 * project. Expected statuses follow GitLab v3's ability model: Guest reads, Reporter forks,
 * Master administers, Owner (or admin) renames, changes visibility and deletes, and a stranger
 * sees nothing (404, never 403). A Developer of the project's group who is not in the project's
 * team (the last column) may do exactly what a Developer of the team may: GitLab's
 * max_member_access took the group level as the project level.
 */
const ROLES = ['guest', 'reporter', 'developer', 'master', 'owner', 'admin', 'stranger'] as const;
type Role = (typeof ROLES)[number];
const LEVEL: Partial<Record<Role, number>> = { guest: 10, reporter: 20, developer: 30, master: 40 };

let owner: TestUser;
const tokens = {} as Record<Role, string>;
const users = {} as Record<Role, TestUser>;
let target: TestUser;
let upstream: TestProject;
let groupDeveloper: TestUser;
let groupId: number;

beforeAll(async () => {
  owner = await createUser();
  target = await createUser();
  upstream = await createProject(stack.rootToken);
  for (const role of ROLES) {
    if (role === 'owner') users[role] = owner;
    else if (role !== 'admin') users[role] = await createUser();
    tokens[role] = role === 'admin' ? stack.rootToken : users[role].token;
  }
  groupDeveloper = await createUser();
  const group = await api('POST', '/groups', {
    token: owner.token,
    body: { name: unique('Matrix'), path: unique('matrix') },
  });
  groupId = group.body.id;
  const joined = await api('POST', `/groups/${groupId}/members`, {
    token: owner.token,
    body: { user_id: groupDeveloper.id, access_level: 30 },
  });
  expect(joined.status).toBe(201);
});

/** A fresh private project of the group (owner is its Owner), with no project team beyond its creator. */
async function groupProject(): Promise<TestProject> {
  return createProject(owner.token, { namespace_id: groupId });
}

/** A fresh private project with the team in place, so destructive operations don't interfere. */
async function teamProject(attrs: Record<string, unknown> = {}): Promise<TestProject> {
  const project = await createProject(owner.token, attrs);
  for (const role of ROLES) if (LEVEL[role]) await addMember(project.id, users[role].id, LEVEL[role]!);
  return project;
}

type Operation = (project: TestProject, token: string) => Promise<{ status: number; text: string }>;
const OPERATIONS: Array<[string, Operation, Record<Role, number>]> = [
  [
    'read the project',
    (p, t) => api('GET', `/projects/${p.id}`, { token: t }),
    { guest: 200, reporter: 200, developer: 200, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'read the events feed',
    (p, t) => api('GET', `/projects/${p.id}/events`, { token: t }),
    { guest: 200, reporter: 200, developer: 200, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'list members',
    (p, t) => api('GET', `/projects/${p.id}/members`, { token: t }),
    { guest: 200, reporter: 200, developer: 200, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'add a member',
    (p, t) => api('POST', `/projects/${p.id}/members`, { token: t, body: { user_id: target.id, access_level: 10 } }),
    { guest: 403, reporter: 403, developer: 403, master: 201, owner: 201, admin: 201, stranger: 404 },
  ],
  [
    'change a member',
    (p, t) => api('PUT', `/projects/${p.id}/members/${users.guest.id}`, { token: t, body: { access_level: 20 } }),
    { guest: 403, reporter: 403, developer: 403, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'remove a member',
    (p, t) => api('DELETE', `/projects/${p.id}/members/${target.id}`, { token: t }),
    { guest: 403, reporter: 403, developer: 403, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'change settings',
    (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { description: unique('d') } }),
    { guest: 403, reporter: 403, developer: 403, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'rename',
    (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { name: unique('renamed') } }),
    { guest: 403, reporter: 403, developer: 403, master: 403, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'change visibility',
    (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { visibility_level: 10 } }),
    { guest: 403, reporter: 403, developer: 403, master: 403, owner: 200, admin: 200, stranger: 404 },
  ],
  // GitLab 7.14's PUT /projects/:id: the path is a Master setting; a name or visibility level that is
  // sent needs Owner even when it is the current one; public=false sets nothing.
  [
    'change the path',
    (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { path: unique('moved') } }),
    { guest: 403, reporter: 403, developer: 403, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'send the current name',
    (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { name: p.name } }),
    { guest: 403, reporter: 403, developer: 403, master: 403, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'send the current visibility',
    (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { visibility_level: 0 } }),
    { guest: 403, reporter: 403, developer: 403, master: 403, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'send public=false',
    (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { public: false } }),
    { guest: 403, reporter: 403, developer: 403, master: 200, owner: 200, admin: 200, stranger: 404 },
  ],
  [
    'fork',
    (p, t) => api('POST', `/projects/fork/${p.id}`, { token: t }),
    // The owner's own namespace already holds the project.
    { guest: 403, reporter: 201, developer: 201, master: 201, owner: 409, admin: 201, stranger: 404 },
  ],
  [
    'create a fork relation',
    (p, t) => api('POST', `/projects/${p.id}/fork/${upstream.id}`, { token: t }),
    { guest: 403, reporter: 403, developer: 403, master: 403, owner: 403, admin: 201, stranger: 403 },
  ],
  [
    'delete the fork relation',
    (p, t) => api('DELETE', `/projects/${p.id}/fork`, { token: t }),
    { guest: 403, reporter: 403, developer: 403, master: 403, owner: 403, admin: 200, stranger: 403 },
  ],
  [
    'delete the project',
    (p, t) => api('DELETE', `/projects/${p.id}`, { token: t }),
    // A stranger gets what a missing project gives (DELETE is idempotent: 200), and deletes nothing.
    { guest: 403, reporter: 403, developer: 403, master: 403, owner: 200, admin: 200, stranger: 200 },
  ],
];

describe.each(OPERATIONS)('%s', (_name, operation, expected) => {
  it.each(ROLES)('as %s', async (role) => {
    const project = await teamProject();
    const res = await operation(project, tokens[role]);
    if (res.status !== expected[role])
      throw new Error(`${role}: expected ${expected[role]}, got ${res.status} ${res.text}`);
    expect(res.status).toBe(expected[role]);
  });

  it('as a group developer outside the team (what a team developer may)', async () => {
    const project = await groupProject();
    const res = await operation(project, groupDeveloper.token);
    if (res.status !== expected.developer)
      throw new Error(`group developer: expected ${expected.developer}, got ${res.status} ${res.text}`);
    expect(res.status).toBe(expected.developer);
  });
});

describe('on an internal project, a signed-in stranger', () => {
  it.each<[string, Operation, number]>([
    ['reads it', (p, t) => api('GET', `/projects/${p.id}`, { token: t }), 200],
    ['reads its team', (p, t) => api('GET', `/projects/${p.id}/members`, { token: t }), 200],
    ['forks it', (p, t) => api('POST', `/projects/fork/${p.id}`, { token: t }), 201],
    [
      'cannot change its settings',
      (p, t) => api('PUT', `/projects/${p.id}`, { token: t, body: { description: 'x' } }),
      403,
    ],
    [
      'cannot add members',
      (p, t) => api('POST', `/projects/${p.id}/members`, { token: t, body: { user_id: target.id, access_level: 10 } }),
      403,
    ],
    ['cannot delete it', (p, t) => api('DELETE', `/projects/${p.id}`, { token: t }), 403],
  ])('%s', async (_name, operation, status) => {
    const project = await createProject(owner.token, { visibility_level: 10 });
    expect((await operation(project, tokens.stranger)).status).toBe(status);
  });
});

describe("on an archived project (GitLab 7.14's project_archived_rules take merge requests and pushes only)", () => {
  // The owner prepares; the acting member has asked nothing of this project before it was archived,
  // so no service holds a cached answer for them from before.
  it.each<
    [string, Role, (p: TestProject, t: string, issueId: number) => Promise<{ status: number; text: string }>, number]
  >([
    [
      'a guest still opens issues',
      'guest',
      (p, t) => api('POST', `/projects/${p.id}/issues`, { token: t, body: { title: 'Still welcome' } }),
      201,
    ],
    [
      'a guest still comments',
      'guest',
      (p, t, issueId) =>
        api('POST', `/projects/${p.id}/issues/${issueId}/notes`, { token: t, body: { body: 'Still here' } }),
      201,
    ],
    [
      'a reporter still adds snippets',
      'reporter',
      (p, t) =>
        api('POST', `/projects/${p.id}/snippets`, {
          token: t,
          body: { title: 's', file_name: 's.txt', code: 'x', visibility_level: 0 },
        }),
      201,
    ],
    [
      'a developer opens no merge request',
      'developer',
      (p, t) =>
        api('POST', `/projects/${p.id}/merge_requests`, {
          token: t,
          body: { source_branch: 'a', target_branch: 'b', title: 'No' },
        }),
      403,
    ],
  ])('%s', async (_name, role, operation, status) => {
    const project = await teamProject({ snippets_enabled: true });
    const issue = (
      await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Before' } })
    ).body;
    const archived = await graphql(
      `
        mutation ($id: Int!) {
          updateProject(input: { projectId: $id, archived: true }) {
            project {
              archived
            }
          }
        }
      `,
      { id: project.id },
      { 'PRIVATE-TOKEN': stack.rootToken },
    );
    expect(archived.body).toMatchObject({ data: { updateProject: { project: { archived: true } } } });
    expect(archived.body.errors).toBeUndefined();
    const res = await operation(project, tokens[role], issue.id);
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text}`);
  });
});
