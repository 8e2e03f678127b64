import { api, createProject, createUser, eventually, stack, type TestUser } from '../support/api';

/**
 * The facade keeps each project's v3 JSON as it rendered it, under the project's revision, and a
 * list page reuses it while the revision holds. These tests render a project first, change one
 * thing its JSON shows, and check that the next answer shows the change: every row the JSON is
 * made from, and the one part that differs by viewer (whether a fork's source is shown), so a
 * rendering never outlives its values or reaches a viewer it was not made for. GET /projects/:id
 * renders every time; it is checked beside the lists, and against them.
 */
const listed = async (token: string, id: number, path = '/projects') => {
  const res = await api('GET', path, { token, query: { per_page: 100, order_by: 'id' } });
  expect(res.status).toBe(200);
  return (res.body as Array<Record<string, any>>).find((p) => p.id === id);
};
const shown = async (token: string, id: number) => {
  const res = await api('GET', `/projects/${id}`, { token });
  expect(res.status).toBe(200);
  return res.body as Record<string, any>;
};

let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser({ name: 'Alice Before' }), createUser()]);
});

it('shows a change of the project itself at once, in lists and alone', async () => {
  const project = await createProject(alice.token, { description: 'first' });
  expect((await listed(alice.token, project.id))?.description).toBe('first');
  expect((await shown(alice.token, project.id)).description).toBe('first');
  const updated = await api('PUT', `/projects/${project.id}`, { token: alice.token, body: { description: 'second' } });
  expect(updated.status).toBe(200);
  expect((await listed(alice.token, project.id))?.description).toBe('second');
  expect((await shown(alice.token, project.id)).description).toBe('second');
  // GET /projects/:id shows what the list shows, with the caller's permissions added.
  const alone = await shown(alice.token, project.id);
  expect(alone.permissions.project_access).toEqual({ access_level: 40, notification_level: 3 });
  expect(alone.permissions.group_access).toBeNull();
  const { permissions, ...fields } = alone;
  expect(fields).toEqual(await listed(alice.token, project.id));
  expect(permissions).toBeDefined();
});

it("shows the owner's new name once identity's change reaches projects", async () => {
  const owner = await createUser({ name: 'Owner Before' });
  const project = await createProject(owner.token);
  expect((await listed(owner.token, project.id))?.owner.name).toBe('Owner Before');
  expect((await shown(owner.token, project.id)).name_with_namespace).toBe(`Owner Before / ${project.name}`);
  const renamed = await api('PUT', `/users/${owner.id}`, { body: { name: 'Owner After' } });
  expect(renamed.status).toBe(200);
  await eventually(async () => {
    const row = await listed(owner.token, project.id);
    expect(row?.owner.name).toBe('Owner After');
    expect(row?.name_with_namespace).toBe(`Owner After / ${project.name}`);
  });
  expect((await shown(owner.token, project.id)).owner.name).toBe('Owner After');
});

it('shows the forks count when a fork is made and when it goes', async () => {
  const project = await createProject(alice.token, { visibility_level: 20 });
  expect((await listed(alice.token, project.id))?.forks_count).toBe(0);
  const fork = await api('POST', `/projects/fork/${project.id}`, { token: bob.token });
  expect(fork.status).toBe(201);
  expect((await listed(alice.token, project.id))?.forks_count).toBe(1);
  expect((await shown(alice.token, project.id)).forks_count).toBe(1);
  expect((await api('DELETE', `/projects/${fork.body.id}`, { token: bob.token })).status).toBe(200);
  expect((await listed(alice.token, project.id))?.forks_count).toBe(0);
});

it("shows a fork's source to those who may see it only, and its changes", async () => {
  const source = await createProject(alice.token, { visibility_level: 20 });
  const fork = await api('POST', `/projects/fork/${source.id}`, { token: bob.token });
  expect(fork.status).toBe(201);
  const forkId = fork.body.id as number;
  expect((await listed(bob.token, forkId))?.forked_from_project).toMatchObject({ id: source.id, name: source.name });

  // The source goes private: bob no longer sees it, root (an admin) still does. Rendered for
  // root first, so a rendering shared across viewers would show bob the source.
  expect(
    (await api('PUT', `/projects/${source.id}`, { token: alice.token, body: { visibility_level: 0 } })).status,
  ).toBe(200);
  expect((await listed(stack.rootToken, forkId, '/projects/all'))?.forked_from_project).toMatchObject({
    id: source.id,
  });
  expect((await shown(stack.rootToken, forkId)).forked_from_project).toMatchObject({ id: source.id });
  expect(await listed(bob.token, forkId)).not.toHaveProperty('forked_from_project');
  expect(await shown(bob.token, forkId)).not.toHaveProperty('forked_from_project');
  // And back: root's rendering again, then bob's.
  expect(
    (await api('PUT', `/projects/${source.id}`, { token: alice.token, body: { visibility_level: 20 } })).status,
  ).toBe(200);
  expect((await listed(bob.token, forkId))?.forked_from_project).toMatchObject({ id: source.id });

  // A change of the source alone shows in the fork's JSON.
  expect(
    (await api('PUT', `/projects/${source.id}`, { token: alice.token, body: { name: 'renamed-source' } })).status,
  ).toBe(200);
  expect((await listed(bob.token, forkId))?.forked_from_project.name).toBe('renamed-source');
  expect((await shown(bob.token, forkId)).forked_from_project.name).toBe('renamed-source');
});

it('shows a transfer into a group: the namespace and the owner change together', async () => {
  const group = await api('POST', '/groups', {
    body: { name: 'Rendered Group', path: `rg${Date.now().toString(36)}` },
  });
  expect(group.status).toBe(201);
  const project = await createProject();
  const before = await listed(stack.rootToken, project.id, '/projects/all');
  expect(before?.owner).toBeDefined();
  const moved = await api('POST', `/groups/${group.body.id}/projects/${project.id}`);
  expect(moved.status).toBe(201);
  const after = await listed(stack.rootToken, project.id, '/projects/all');
  expect(after?.namespace).toMatchObject({ id: group.body.id, name: 'Rendered Group' });
  expect(after).not.toHaveProperty('owner');
  expect(after?.path_with_namespace).toBe(`${group.body.path}/${project.path}`);
});
