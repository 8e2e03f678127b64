import {
  api,
  createProject,
  createUser,
  eventually,
  expectPaginationHeaders,
  graphql,
  unique,
  type TestUser,
} from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';

const GROUP_FIELDS = ['id', 'name', 'path', 'description', 'avatar_url', 'web_url'];

let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let group: { id: number; name: string; path: string };

async function createGroup(token: string, attrs: Record<string, unknown> = {}) {
  const path = unique('grp');
  return api('POST', '/groups', { token, body: { name: `Group ${path}`, path, ...attrs } });
}

beforeAll(async () => {
  owner = await createUser();
  developer = await createUser();
  reporter = await createUser();
  stranger = await createUser();
  const res = await createGroup(owner.token, { description: 'the core team' });
  expect(res.status).toBe(201);
  group = res.body;
});

describe('POST /groups', () => {
  it('creates a group with GitLab 7.14 fields; its creator is its Owner', async () => {
    expect(Object.keys(group)).toEqual(GROUP_FIELDS);
    expect(group).toMatchObject({ description: 'the core team', avatar_url: null });
    expect(group.name).toMatch(/^Group grp/);
    const members = await api('GET', `/groups/${group.id}/members`, { token: owner.token });
    expect(members.status).toBe(200);
    expect(members.body).toEqual([
      expect.objectContaining({ id: owner.id, username: owner.username, access_level: 50 }),
    ]);
    expect(Object.keys(members.body[0]).sort()).toEqual([
      'access_level',
      'avatar_url',
      'id',
      'name',
      'state',
      'username',
      'web_url',
    ]);
  });

  it('requires name and path (400), refuses taken and invalid paths in 7.14 form (400), and users who may not create groups (403)', async () => {
    expect(await createGroup(owner.token, { name: undefined }).then((r) => [r.status, r.body])).toEqual([
      400,
      { message: '400 (Bad request) "name" not given' },
    ]);
    const taken = await createGroup(owner.token, { path: group.path });
    expect([taken.status, taken.body.message]).toEqual([
      400,
      'Failed to save group {:path=>["has already been taken"]}',
    ]);
    // A user's namespace takes the path too.
    const userPath = await createGroup(owner.token, { path: stranger.username.toUpperCase() });
    expect(userPath.body.message).toBe('Failed to save group {:path=>["has already been taken"]}');
    const bad = await createGroup(owner.token, { path: '-bad' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Failed to save group \{:path=>\["can contain only letters/);
    const limited = await createUser({ can_create_group: false });
    expect((await createGroup(limited.token)).status).toBe(403);
    expect((await createGroup('')).status).toBe(401);
  });
});

describe('group members', () => {
  beforeAll(async () => {
    expect(
      (
        await api('POST', `/groups/${group.id}/members`, {
          token: owner.token,
          body: { user_id: developer.id, access_level: 30 },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api('POST', `/groups/${group.path}/members`, {
          token: owner.token,
          body: { user_id: reporter.id, access_level: 20 },
        })
      ).status,
    ).toBe(201);
  });

  it('lists members by user id with pagination headers, by id or by path', async () => {
    const res = await api('GET', `/groups/${group.path}/members`, { token: developer.token });
    expect(res.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level])).toEqual([
      [owner.id, 50],
      [developer.id, 30],
      [reporter.id, 20],
    ]);
    expectPaginationHeaders(res, 3);
    const one = await api('GET', `/groups/${group.id}/members/${developer.id}`, { token: reporter.token });
    expect([one.status, one.body.username, one.body.access_level]).toEqual([200, developer.username, 30]);
    const outsider = await api('GET', `/groups/${group.id}/members/${stranger.id}`, { token: owner.token });
    expect([outsider.status, outsider.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it("answers 7.14's refusals: 409 for a member, 422 for a bad level, 400 for missing attributes, 403 below Owner", async () => {
    const again = await api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      body: { user_id: developer.id, access_level: 40 },
    });
    expect([again.status, again.body]).toEqual([409, { message: 'Already exists' }]);
    const level = await api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      body: { user_id: stranger.id, access_level: 35 },
    });
    expect([level.status, level.body]).toEqual([422, { message: 'Wrong access level' }]);
    const missing = await api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      body: { user_id: stranger.id },
    });
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "access_level" not given' }]);
    const notOwner = await api('POST', `/groups/${group.id}/members`, {
      token: developer.token,
      body: { user_id: stranger.id, access_level: 10 },
    });
    expect(notOwner.status).toBe(403);
  });

  it('keeps a group from users who are not in it and see none of its projects (403 naming them, as 7.14), 404 for no group', async () => {
    // GitLab's forbidden!(reason) joined '403 Forbidden' and ' - <reason>' with a space.
    const refusal = { message: `403 Forbidden  - ${stranger.username} lacks sufficient access to ${group.name}` };
    const res = await api('GET', `/groups/${group.id}`, { token: stranger.token });
    expect([res.status, res.body]).toEqual([403, refusal]);
    const members = await api('GET', `/groups/${group.id}/members`, { token: stranger.token });
    expect([members.status, members.body]).toEqual([403, refusal]);
    const none = await api('GET', '/groups/no-such-group-anywhere', { token: owner.token });
    expect([none.status, none.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it("updates a level (404 for a non-member) and removes a member (7.14's 404 for a non-member)", async () => {
    const updated = await api('PUT', `/groups/${group.id}/members/${reporter.id}`, {
      token: owner.token,
      body: { access_level: 10 },
    });
    expect([updated.status, updated.body.access_level]).toEqual([200, 10]);
    const missing = await api('PUT', `/groups/${group.id}/members/${stranger.id}`, {
      token: owner.token,
      body: { access_level: 10 },
    });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 User can not be found Not Found' }]);
    const extra = await createUser();
    await api('POST', `/groups/${group.id}/members`, {
      token: owner.token,
      body: { user_id: extra.id, access_level: 10 },
    });
    const removed = await api('DELETE', `/groups/${group.id}/members/${extra.id}`, { token: owner.token });
    expect([removed.status, removed.body.id]).toEqual([200, extra.id]);
    const again = await api('DELETE', `/groups/${group.id}/members/${extra.id}`, { token: owner.token });
    expect([again.status, again.body]).toEqual([
      404,
      { message: `404 Not Found - user_id:${extra.id} not a member of group ${group.name}` },
    ]);
  });
});

describe('projects in a group', () => {
  let project: { id: number; path_with_namespace: string; [k: string]: any };

  beforeAll(async () => {
    const res = await api('POST', '/projects', {
      token: owner.token,
      body: { name: unique('gp'), namespace_id: group.id },
    });
    expect(res.status).toBe(201);
    project = res.body;
  });

  it('lives in the group: the namespace, name_with_namespace and no owner, as GitLab showed group projects', async () => {
    expect(project.path_with_namespace).toBe(`${group.path}/${project.path}`);
    expect(project.name_with_namespace).toBe(`${group.name} / ${project.name}`);
    expect(project.namespace).toMatchObject({ id: group.id, path: group.path, name: group.name });
    expect(project.owner).toBeUndefined();
  });

  it('is seen, with permissions.group_access, by a group member who is not in the project team', async () => {
    const res = await api('GET', `/projects/${project.id}`, { token: developer.token });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({
      project_access: null,
      group_access: { access_level: 30, notification_level: 3 },
    });
    const team = await api('GET', `/projects/${project.id}/members`, { token: developer.token });
    expect(team.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
    const byPath = await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`, {
      token: reporter.token,
    });
    expect(byPath.status).toBe(200);
    const mine = await api('GET', '/projects', { token: developer.token });
    expect(mine.body.map((p: { id: number }) => p.id)).toContain(project.id);
    expect((await api('GET', `/projects/${project.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('gives the group level on the project: a group Developer pushes over HTTP and opens issues; a group Guest cannot push', async () => {
    const dir = await workingCopy({ 'README.md': '# group project\n' });
    ok(await git(dir, 'push', remoteUrl(project.path_with_namespace, developer.username, developer.token), 'master'));
    await eventually(async () => {
      const branches = await api('GET', `/projects/${project.id}/repository/branches`, { token: developer.token });
      expect(branches.body.map((b: { name: string }) => b.name)).toEqual(['master']);
    });
    const guestPush = await git(
      dir,
      'push',
      remoteUrl(project.path_with_namespace, reporter.username, reporter.token),
      'master:refs/heads/guest',
    );
    expect(guestPush.code).not.toBe(0);
    const issue = await api('POST', `/projects/${project.id}/issues`, {
      token: developer.token,
      body: { title: 'from a group member' },
    });
    expect(issue.status).toBe(201);
    // Developer is not Master: no project settings.
    expect(
      (await api('PUT', `/projects/${project.id}`, { token: developer.token, body: { description: 'x' } })).status,
    ).toBe(403);
    // The group's Owner has Owner rights on the project.
    expect(
      (await api('PUT', `/projects/${project.id}`, { token: owner.token, body: { visibility_level: 10 } })).status,
    ).toBe(200);
  });

  it('shows the group with the projects the caller may see (GET /groups/:id)', async () => {
    const res = await api('GET', `/groups/${group.path}`, { token: developer.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...GROUP_FIELDS, 'projects']);
    expect(res.body.projects.map((p: { id: number }) => p.id)).toContain(project.id);
  });

  it('refuses a project in a group to members below Master (namespace is not valid)', async () => {
    const res = await api('POST', '/projects', {
      token: developer.token,
      body: { name: unique('gp'), namespace_id: group.id },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('is not valid');
  });

  it("lists the group among the member's groups and namespaces", async () => {
    const groups = await api('GET', '/groups', { token: developer.token });
    expect(groups.body.map((g: { id: number }) => g.id)).toEqual([group.id]);
    expectPaginationHeaders(groups, 1);
    const strangers = await api('GET', '/groups', { token: stranger.token });
    expect(strangers.body).toEqual([]);
    const searched = await api('GET', '/groups', { query: { search: group.path } });
    expect(searched.body.map((g: { id: number }) => g.id)).toEqual([group.id]);
    const namespaces = await api('GET', '/namespaces', { token: developer.token });
    expect(namespaces.body.map((n: { path: string; kind: string }) => [n.path, n.kind])).toEqual([
      [developer.username, 'user'],
      [group.path, 'group'],
    ]);
  });

  it("a group's public project lets anyone signed in see the group, with that project only", async () => {
    const hidden = await api('POST', '/projects', {
      token: owner.token,
      body: { name: unique('hidden'), namespace_id: group.id },
    });
    const open = await api('POST', '/projects', {
      token: owner.token,
      body: { name: unique('open'), namespace_id: group.id, visibility_level: 20 },
    });
    const seen = await api('GET', `/groups/${group.id}`, { token: stranger.token });
    expect(seen.status).toBe(200);
    const ids = seen.body.projects.map((p: { id: number }) => p.id);
    expect(ids).toContain(open.body.id);
    expect(ids).not.toContain(hidden.body.id);
  });
});

describe('transfer and deletion', () => {
  it("moves a project into a group (admins only), and refuses 7.14's way", async () => {
    const target = (await createGroup(owner.token)).body;
    const project = await createProject(stranger.token);
    const refused = await api('POST', `/groups/${target.id}/projects/${project.id}`, { token: owner.token });
    expect(refused.status).toBe(403);
    const moved = await api('POST', `/groups/${target.id}/projects/${project.id}`);
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({ id: target.id, path: target.path });
    const after = await api('GET', `/projects/${project.id}`, { token: owner.token });
    expect(after.body.path_with_namespace).toBe(`${target.path}/${project.path}`);
    // The group's Owner now owns it; its creator keeps the Master row GitLab gave them.
    expect(after.body.permissions.group_access.access_level).toBe(50);
    const again = await api('POST', `/groups/${target.id}/projects/${project.id}`);
    expect([again.status, again.body]).toEqual([
      400,
      { message: 'Failed to transfer project {:new_namespace=>["is invalid"]}' },
    ]);
    const missing = await api('POST', `/groups/${target.id}/projects/999999999`);
    expect(missing.status).toBe(404);
  });

  it('deletes a group and its projects (Owner or admin only)', async () => {
    const doomed = (await createGroup(owner.token)).body;
    const project = (
      await api('POST', '/projects', { token: owner.token, body: { name: unique('doomed'), namespace_id: doomed.id } })
    ).body;
    await api('POST', `/groups/${doomed.id}/members`, {
      token: owner.token,
      body: { user_id: developer.id, access_level: 40 },
    });
    expect((await api('DELETE', `/groups/${doomed.id}`, { token: developer.token })).status).toBe(403);
    const deleted = await api('DELETE', `/groups/${doomed.id}`, { token: owner.token });
    expect([deleted.status, deleted.body.id]).toEqual([200, doomed.id]);
    expect((await api('GET', `/groups/${doomed.id}`, { token: owner.token })).status).toBe(404);
    await eventually(async () => {
      expect((await api('GET', `/projects/${project.id}`)).status).toBe(404);
    }, 10_000);
  });
});

describe('GraphQL for internal teams', () => {
  it('reads a group with its members and projects in one query', async () => {
    const res = await graphql(
      `
        query ($id: Int) {
          group(id: $id) {
            name
            path
            members {
              count
              nodes {
                accessLevel
                user {
                  username
                }
              }
            }
            projects {
              count
            }
          }
        }
      `,
      { id: group.id },
      { 'PRIVATE-TOKEN': owner.token },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.group).toMatchObject({ path: group.path, members: { count: 3 } });
    expect(res.body.data.group.members.nodes[0]).toEqual({ accessLevel: 'OWNER', user: { username: owner.username } });
    expect(res.body.data.group.projects.count).toBeGreaterThanOrEqual(3);
  });
});
