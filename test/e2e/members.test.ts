import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  expectPaginationHeaders,
  type TestProject,
  type TestUser,
} from '../support/api';

const MEMBER_FIELDS = ['id', 'username', 'email', 'name', 'state', 'created_at', 'access_level'];

let owner: TestUser;
let dev: TestUser;
let other: TestUser;
let project: TestProject;
beforeAll(async () => {
  // One after the other: the team lists in user id order.
  owner = await createUser({ name: 'Olivia Owner' });
  dev = await createUser({ name: 'Devon Dev' });
  other = await createUser({ name: 'Oscar Other' });
  project = await createProject(owner.token);
  await addMember(project.id, dev.id, 30);
});

describe('GET /projects/:id/members', () => {
  it('lists the creator as Master (40, as GitLab 7.14 did) and the members with user fields and access_level, with pagination headers', async () => {
    const res = await api('GET', `/projects/${project.id}/members`, { token: dev.token });
    expect(res.status).toBe(200);
    expect(res.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level])).toEqual([
      [owner.id, 40],
      [dev.id, 30],
    ]);
    for (const field of MEMBER_FIELDS) expect(res.body[1]).toHaveProperty(field);
    expect(res.body[1]).toMatchObject({ username: dev.username, name: 'Devon Dev', state: 'active', email: dev.email });
    expectPaginationHeaders(res, 2);
  });

  it('searches members by username with query, as GitLab 7.14 did (username LIKE), not by name or email', async () => {
    const byName = await api('GET', `/projects/${project.id}/members`, {
      token: owner.token,
      query: { query: 'devon' },
    });
    expect(byName.body).toEqual([]);
    const byEmail = await api('GET', `/projects/${project.id}/members`, {
      token: owner.token,
      query: { query: 'example.com' },
    });
    expect(byEmail.body).toEqual([]);
    const byPart = await api('GET', `/projects/${project.id}/members`, {
      token: owner.token,
      query: { query: dev.username.slice(1).toUpperCase() },
    });
    expect(byPart.body.map((m: { id: number }) => m.id)).toEqual([dev.id]);
    expectPaginationHeaders(byPart, 1);
    const byUsername = await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}/members`, {
      token: owner.token,
      query: { query: owner.username },
    });
    expect(byUsername.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
    const none = await api('GET', `/projects/${project.id}/members`, {
      token: owner.token,
      query: { query: 'nobody-matches-this' },
    });
    expect(none.body).toEqual([]);
  });

  it('hides the team of a private project from strangers', async () => {
    const res = await api('GET', `/projects/${project.id}/members`, { token: other.token });
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});

describe('GET /projects/:id/members/:user_id', () => {
  it('shows one member', async () => {
    const res = await api('GET', `/projects/${project.id}/members/${dev.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: dev.id, username: dev.username, access_level: 30 });
  });

  it('answers 404 for a user outside the team', async () => {
    const res = await api('GET', `/projects/${project.id}/members/${other.id}`, { token: owner.token });
    expect(res.status).toBe(404);
  });
});

describe('POST /projects/:id/members', () => {
  it('adds a member (201) and is idempotent: an existing membership is kept', async () => {
    const team = await createProject(owner.token);
    const added = await api('POST', `/projects/${team.id}/members`, {
      token: owner.token,
      body: { user_id: other.id, access_level: 20 },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: other.id, username: other.username, access_level: 20 });
    const again = await api('POST', `/projects/${team.id}/members`, {
      token: owner.token,
      body: { user_id: other.id, access_level: 40 },
    });
    expect(again.status).toBe(201);
    expect(again.body.access_level).toBe(20);
    const shown = await api('GET', `/projects/${team.id}/members/${other.id}`, { token: owner.token });
    expect(shown.body.access_level).toBe(20);
  });

  it('works with the encoded path', async () => {
    const team = await createProject(owner.token);
    const res = await api('POST', `/projects/${encodeURIComponent(team.path_with_namespace)}/members`, {
      token: owner.token,
      body: new URLSearchParams({ user_id: String(dev.id), access_level: '10' }),
    });
    expect([res.status, res.body.access_level]).toEqual([201, 10]);
  });

  it.each<[string, Record<string, unknown>, number, unknown]>([
    ['no user_id', { user_id: undefined }, 400, '400 (Bad request) "user_id" not given'],
    ['no access_level', { access_level: undefined }, 400, '400 (Bad request) "access_level" not given'],
    ['access_level 35', { access_level: 35 }, 422, { access_level: ['is not included in the list'] }],
    ['access_level 50', { access_level: 50 }, 422, { access_level: ['is not included in the list'] }],
    ['a user id that does not exist', { user_id: 99999999, access_level: 30 }, 404, '404 User Not Found'],
  ])('refuses %s', async (_name, body, status, message) => {
    const team = await createProject(owner.token);
    const res = await api('POST', `/projects/${team.id}/members`, {
      token: owner.token,
      body: { user_id: other.id, access_level: 30, ...body },
    });
    expect([res.status, res.body]).toEqual([status, { message }]);
  });
});

describe('PUT /projects/:id/members/:user_id', () => {
  it('changes the access level', async () => {
    const team = await createProject(owner.token);
    await addMember(team.id, other.id, 20);
    const res = await api('PUT', `/projects/${team.id}/members/${other.id}`, {
      token: owner.token,
      body: { access_level: 40 },
    });
    expect([res.status, res.body.access_level]).toEqual([200, 40]);
  });

  it('answers 404 for a non-member and 400 without access_level', async () => {
    const team = await createProject(owner.token);
    const nonMember = await api('PUT', `/projects/${team.id}/members/${other.id}`, {
      token: owner.token,
      body: { access_level: 30 },
    });
    expect([nonMember.status, nonMember.body]).toEqual([404, { message: '404 User can not be found Not Found' }]);
    const missing = await api('PUT', `/projects/${team.id}/members/${other.id}`, { token: owner.token, body: {} });
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "access_level" not given' }]);
  });

  it("changes the creator's row like any other (GitLab 7.14); the namespace owner keeps Owner rights", async () => {
    const team = await createProject(owner.token);
    const res = await api('PUT', `/projects/${team.id}/members/${owner.id}`, {
      token: owner.token,
      body: { access_level: 10 },
    });
    expect([res.status, res.body.id, res.body.access_level]).toEqual([200, owner.id, 10]);
    const shown = await api('GET', `/projects/${team.id}`, { token: owner.token });
    expect(shown.body.permissions.project_access).toEqual({ access_level: 10, notification_level: 3 });
    // Owning the namespace, not the row, makes the owner Owner: they still manage the project.
    expect(
      (await api('PUT', `/projects/${team.id}`, { token: owner.token, body: { name: `${team.name}-renamed` } })).status,
    ).toBe(200);
  });
});

describe('DELETE /projects/:id/members/:user_id', () => {
  it('removes a member and succeeds again for a non-member', async () => {
    const team = await createProject(owner.token);
    await addMember(team.id, other.id, 30);
    const res = await api('DELETE', `/projects/${team.id}/members/${other.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: other.id, access_level: 30 });
    const again = await api('DELETE', `/projects/${team.id}/members/${other.id}`, { token: owner.token });
    expect([again.status, again.body]).toEqual([200, { message: 'Access revoked', id: other.id }]);
    const team2 = await api('GET', `/projects/${team.id}/members`, { token: owner.token });
    expect(team2.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
  });

  it("removes the creator's row like any other (GitLab 7.14); the namespace owner keeps the project", async () => {
    const team = await createProject(owner.token);
    const res = await api('DELETE', `/projects/${team.id}/members/${owner.id}`, { token: owner.token });
    expect([res.status, res.body.id, res.body.access_level]).toEqual([200, owner.id, 40]);
    expect((await api('GET', `/projects/${team.id}/members`, { token: owner.token })).body).toEqual([]);
    const shown = await api('GET', `/projects/${team.id}`, { token: owner.token });
    expect([shown.status, shown.body.permissions.project_access]).toEqual([200, null]);
    expect((await api('GET', '/projects', { token: owner.token })).body.map((p: { id: number }) => p.id)).toContain(
      team.id,
    );
  });

  it('takes access away from a removed member of a private project', async () => {
    const team = await createProject(owner.token);
    await addMember(team.id, other.id, 30);
    expect((await api('GET', `/projects/${team.id}`, { token: other.token })).status).toBe(200);
    await api('DELETE', `/projects/${team.id}/members/${other.id}`, { token: owner.token });
    // Membership's event drops the cached answer in projects (the test stack caches for a minute).
    await eventually(async () => {
      expect((await api('GET', `/projects/${team.id}`, { token: other.token })).status).toBe(404);
    });
  });
});
