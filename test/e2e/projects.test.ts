import { createSql } from '@hub/common';
import {
  api,
  createProject,
  createUser,
  eventually,
  expectPaginationHeaders,
  graphql,
  stack,
  unique,
  type TestUser,
} from '../support/api';

const PROJECT_FIELDS = [
  'id',
  'description',
  'default_branch',
  'public',
  'visibility_level',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'tag_list',
  'owner',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'issues_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'snippets_enabled',
  'created_at',
  'last_activity_at',
  'creator_id',
  'namespace',
  'archived',
  'avatar_url',
];

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
});

describe('POST /projects', () => {
  it('creates a project in the caller namespace with every v3 field, null where unset', async () => {
    const name = unique('My Project ');
    const res = await api('POST', '/projects', { token: alice.token, body: { name } });
    expect(res.status).toBe(201);
    for (const field of PROJECT_FIELDS) expect(res.body).toHaveProperty(field);
    const path = name.toLowerCase().replace(/ /g, '-');
    expect(res.body).toMatchObject({
      name,
      path,
      description: null,
      avatar_url: null,
      default_branch: 'master',
      public: false,
      visibility_level: 0,
      archived: false,
      tag_list: [],
      issues_enabled: true,
      merge_requests_enabled: true,
      wiki_enabled: true,
      snippets_enabled: false,
      creator_id: alice.id,
      path_with_namespace: `${alice.username}/${path}`,
      // GitLab's Namespace#human_name: the owner's display name for a personal namespace.
      name_with_namespace: `User ${alice.username} / ${name}`,
      http_url_to_repo: `${stack.externalUrl}/${alice.username}/${path}.git`,
      web_url: `${stack.externalUrl}/${alice.username}/${path}`,
      ssh_url_to_repo: `git@${new URL(stack.externalUrl).hostname}:${alice.username}/${path}.git`,
      owner: { id: alice.id, name: `User ${alice.username}` },
      namespace: { path: alice.username, name: alice.username, owner_id: alice.id },
    });
    expect(res.body.owner.created_at).toEqual(expect.any(String));
    for (const field of ['id', 'name', 'path', 'description', 'owner_id', 'created_at', 'updated_at'])
      expect(res.body.namespace).toHaveProperty(field);
    expect(res.body).not.toHaveProperty('permissions');
    expect(res.body).not.toHaveProperty('forked_from_project');
  });

  it('keeps public and visibility_level consistent both ways', async () => {
    const viaPublic = await api('POST', '/projects', {
      token: alice.token,
      body: { name: unique('pub'), public: 'true' },
    });
    expect(viaPublic.body).toMatchObject({ public: true, visibility_level: 20 });
    const internal = await api('POST', '/projects', {
      token: alice.token,
      body: { name: unique('int'), visibility_level: 10 },
    });
    expect(internal.body).toMatchObject({ public: false, visibility_level: 10 });
    const both = await api('POST', '/projects', {
      token: alice.token,
      body: { name: unique('both'), public: true, visibility_level: 10 },
    });
    expect(both.body.visibility_level).toBe(10);
    const made = await api('PUT', `/projects/${internal.body.id}`, { token: alice.token, body: { public: true } });
    expect(made.body).toMatchObject({ public: true, visibility_level: 20 });
    // public=false sets no level (GitLab 7.14 mapped only true); the spec speaks only of true.
    const ignored = await api('PUT', `/projects/${internal.body.id}`, { token: alice.token, body: { public: false } });
    expect(ignored.body).toMatchObject({ public: true, visibility_level: 20 });
    const back = await api('PUT', `/projects/${internal.body.id}`, {
      token: alice.token,
      body: { visibility_level: 0 },
    });
    expect(back.body).toMatchObject({ public: false, visibility_level: 0 });
  });

  it('takes path, description, features and namespace_id of the caller namespace', async () => {
    const path = unique('custom-path');
    const me = await api('GET', '/namespaces', { token: alice.token });
    const res = await api('POST', '/projects', {
      token: alice.token,
      body: {
        name: unique('Named'),
        path,
        description: 'about',
        issues_enabled: false,
        snippets_enabled: true,
        namespace_id: me.body[0].id,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ path, description: 'about', issues_enabled: false, snippets_enabled: true });
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ['missing name', {}, '400 (Bad request) "name" not given'],
    ['a name with slashes', { name: 'a/b' }, { name: [expect.stringContaining('can contain only')] }],
    [
      'a path starting with a dash',
      { name: 'ok', path: '-x' },
      { path: [expect.stringContaining('Cannot start with')] },
    ],
    ['a path ending in .git', { name: 'ok', path: 'x.git' }, { path: [expect.any(String)] }],
    ['visibility_level 5', { name: 'ok', visibility_level: 5 }, { visibility_level: ['is not included in the list'] }],
    ['visibility_level abc', { name: 'ok', visibility_level: 'abc' }, { visibility_level: ['is invalid'] }],
    ['a hostile default branch', { name: 'ok', default_branch: '--upload-pack=x' }, { default_branch: ['is invalid'] }],
    ['a file import_url', { name: 'ok', import_url: 'file:///etc/passwd' }, { import_url: [expect.any(String)] }],
  ])('refuses %s with a 400', async (_name, body, message) => {
    const res = await api('POST', '/projects', { token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  it('refuses a namespace the caller does not own', async () => {
    const theirs = await api('GET', '/namespaces', { token: bob.token });
    const res = await api('POST', '/projects', {
      token: alice.token,
      body: { name: unique('x'), namespace_id: theirs.body[0].id },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { namespace: ['is not valid'] } });
  });

  it('answers 409 naming the field for a duplicate name or path in the namespace', async () => {
    const first = await createProject(alice.token);
    const sameName = await api('POST', '/projects', {
      token: alice.token,
      body: { name: first.name.toUpperCase(), path: unique('other') },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({ message: { name: ['has already been taken'] } });
    const samePath = await api('POST', '/projects', {
      token: alice.token,
      body: { name: unique('other'), path: first.path },
    });
    expect(samePath.status).toBe(409);
    expect(samePath.body).toEqual({ message: { path: ['has already been taken'] } });
    // Another namespace may use both.
    const elsewhere = await api('POST', '/projects', { token: bob.token, body: { name: first.name } });
    expect(elsewhere.status).toBe(201);
  });

  it('lets exactly one of two concurrent creates of a name win', async () => {
    const name = unique('race');
    const results = await Promise.all(
      [1, 2, 3].map(() => api('POST', '/projects', { token: alice.token, body: { name } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('name_with_namespace', () => {
  it("shows the owner's display name, not the username, wherever a project is shown", async () => {
    const liddell = await createUser({ name: 'Alice Liddell' });
    const name = unique('Proj');
    const made = await api('POST', '/projects', { token: liddell.token, body: { name, visibility_level: 10 } });
    expect(made.body).toMatchObject({
      name_with_namespace: `Alice Liddell / ${name}`,
      namespace: { name: liddell.username, path: liddell.username },
    });
    expect((await api('GET', `/projects/${made.body.id}`, { token: liddell.token })).body.name_with_namespace).toBe(
      `Alice Liddell / ${name}`,
    );
    const listed = await api('GET', '/projects', { token: liddell.token });
    expect(listed.body.find((p: { id: number }) => p.id === made.body.id).name_with_namespace).toBe(
      `Alice Liddell / ${name}`,
    );
    const fork = await api('POST', `/projects/fork/${made.body.id}`, { token: bob.token });
    expect(fork.body).toMatchObject({
      name_with_namespace: `User ${bob.username} / ${name}`,
      forked_from_project: { id: made.body.id, name_with_namespace: `Alice Liddell / ${name}` },
    });
    const forUser = await api('POST', `/projects/user/${liddell.id}`, { body: { name: unique('ForHer') } });
    expect(forUser.body.name_with_namespace).toBe(`Alice Liddell / ${forUser.body.name}`);
    // A new display name follows (identity's user.updated event).
    expect((await api('PUT', `/users/${liddell.id}`, { body: { name: 'Alice P. Liddell' } })).status).toBe(200);
    await eventually(async () => {
      const res = await api('GET', `/projects/${fork.body.id}`, { token: bob.token });
      expect(res.body.forked_from_project.name_with_namespace).toBe(`Alice P. Liddell / ${name}`);
    });
  });
});

describe('POST /projects/user/:user_id', () => {
  it('creates a project owned by the user, as an admin', async () => {
    const res = await api('POST', `/projects/user/${bob.id}`, {
      body: { name: unique('for-bob'), default_branch: 'develop' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      owner: { id: bob.id },
      namespace: { owner_id: bob.id },
      default_branch: 'develop',
    });
    expect(res.body.path_with_namespace).toMatch(new RegExp(`^${bob.username}/`));
    const mine = await api('GET', '/projects/owned', { token: bob.token });
    expect(mine.body.map((p: { id: number }) => p.id)).toContain(res.body.id);
  });

  it('is admin only', async () => {
    const res = await api('POST', `/projects/user/${bob.id}`, { token: alice.token, body: { name: unique('nope') } });
    expect(res.status).toBe(403);
  });

  it('answers a missing name with a validation object, and an unknown user with 404', async () => {
    const missing = await api('POST', `/projects/user/${bob.id}`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: { name: ["can't be blank"] } });
    const unknown = await api('POST', '/projects/user/999999', { body: { name: 'x' } });
    // GitLab 7.14: User.find, so ActiveRecord::RecordNotFound's answer.
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('GET /projects/:id', () => {
  it('shows a project by id and by encoded path, with permissions', async () => {
    const project = await createProject(alice.token);
    const byId = await api('GET', `/projects/${project.id}`, { token: alice.token });
    expect(byId.status).toBe(200);
    // GitLab 7.14 made the creator a Master member (Projects::CreateService): project_access is that row.
    expect(byId.body.permissions).toEqual({
      project_access: { access_level: 40, notification_level: 3 },
      group_access: null,
    });
    const byPath = await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`, {
      token: alice.token,
    });
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(project.id);
  });

  it('answers 404 for a private project to a stranger, exactly as for a missing one', async () => {
    const project = await createProject(alice.token);
    for (const path of [
      `/projects/${project.id}`,
      `/projects/${encodeURIComponent(project.path_with_namespace)}`,
      '/projects/99999999',
    ]) {
      const res = await api('GET', path, { token: bob.token });
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
    }
    expect((await api('GET', '/projects/not-a-path', { token: bob.token })).status).toBe(404);
  });

  it('shows internal projects to any signed-in user, without project access', async () => {
    const project = await createProject(alice.token, { visibility_level: 10 });
    const res = await api('GET', `/projects/${project.id}`, { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({ project_access: null, group_access: null });
  });

  it('requires authentication even for public projects', async () => {
    const project = await createProject(alice.token, { visibility_level: 20 });
    expect((await api('GET', `/projects/${project.id}`, { token: null })).status).toBe(401);
  });
});

describe('project lists', () => {
  let carol: TestUser;
  const ids = (res: { body: Array<{ id: number }> }) => res.body.map((p) => p.id);
  beforeAll(async () => {
    carol = await createUser();
  });

  it('GET /projects lists the projects the caller owns or is a member of, with pagination headers', async () => {
    const own = await createProject(carol.token, { name: unique('b-own') });
    const others = await createProject(alice.token, { name: unique('a-member') });
    await api('POST', `/projects/${others.id}/members`, {
      token: alice.token,
      body: { user_id: carol.id, access_level: 20 },
    });
    const internal = await createProject(alice.token, { visibility_level: 10 });
    const res = await api('GET', '/projects', { token: carol.token, query: { order_by: 'name', sort: 'asc' } });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([others.id, own.id]);
    expect(ids(res)).not.toContain(internal.id);
    expectPaginationHeaders(res, 2);
  });

  it('pages with page and per_page', async () => {
    const dave = await createUser();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createProject(dave.token));
    const page2 = await api('GET', '/projects', {
      token: dave.token,
      query: { per_page: 2, page: 2, order_by: 'id', sort: 'asc' },
    });
    expect(ids(page2)).toEqual([made[2].id]);
    expectPaginationHeaders(page2, 3, 2);
    expect(page2.headers.get('x-prev-page')).toBe('1');
  });

  it('GET /projects/owned lists only the caller namespace', async () => {
    const own = await createProject(carol.token);
    const res = await api('GET', '/projects/owned', { token: carol.token });
    expect(ids(res)).toContain(own.id);
    for (const p of res.body) expect(p.owner.id).toBe(carol.id);
    expectPaginationHeaders(res, res.body.length);
  });

  it('GET /projects/all is admin only and lists private projects of everyone', async () => {
    const hidden = await createProject(carol.token);
    expect((await api('GET', '/projects/all', { token: carol.token })).status).toBe(403);
    const res = await api('GET', '/projects/all', { query: { per_page: 100, search: hidden.name } });
    expect(ids(res)).toEqual([hidden.id]);
    expectPaginationHeaders(res, 1, 100);
  });

  it('filters by archived and by name search', async () => {
    const kept = await createProject(carol.token, { name: unique('arch-kept') });
    const archived = await createProject(carol.token, { name: unique('arch-gone') });
    // The v3 PUT has no archived parameter; GraphQL users can archive.
    const { body } = await graphql(
      `
        mutation ($id: Int!) {
          updateProject(input: { projectId: $id, archived: true }) {
            project {
              archived
            }
          }
        }
      `,
      { id: archived.id },
      { 'PRIVATE-TOKEN': stack.rootToken },
    );
    expect(body).toMatchObject({ data: { updateProject: { project: { archived: true } } } });
    expect(body.errors).toBeUndefined();
    const onlyArchived = await api('GET', '/projects', { token: carol.token, query: { archived: true } });
    expect(ids(onlyArchived)).toEqual([archived.id]);
    const active = await api('GET', '/projects', { token: carol.token, query: { archived: false, search: 'arch-' } });
    expect(ids(active)).toEqual([kept.id]);
    expect((await api('GET', `/projects/${archived.id}`, { token: carol.token })).body.archived).toBe(true);
  });

  it("searches as GitLab 7.14's Project.search: name, path, namespace name and description, never archived projects", async () => {
    const word = unique('hay').toLowerCase();
    const byName = await createProject(carol.token, { name: `${word} name` });
    const byPath = await createProject(carol.token, { name: unique('other'), path: `${word}-path` });
    const byDescription = await createProject(carol.token, {
      name: unique('other'),
      description: `About ${word.toUpperCase()}`,
    });
    const archived = await createProject(carol.token, { name: `${word} archived` });
    await graphql(
      `
        mutation ($id: Int!) {
          updateProject(input: { projectId: $id, archived: true }) {
            project {
              archived
            }
          }
        }
      `,
      { id: archived.id },
      { 'PRIVATE-TOKEN': stack.rootToken },
    );
    const res = await api('GET', '/projects', {
      token: carol.token,
      query: { search: word, order_by: 'id', sort: 'asc' },
    });
    expect(ids(res)).toEqual([byName.id, byPath.id, byDescription.id]);
    expect(ids(await api('GET', '/projects', { token: carol.token, query: { search: word, archived: true } }))).toEqual(
      [],
    );
    // The namespace name (the username of a personal namespace) matches every project in it.
    const dave = await createUser();
    const his = await createProject(dave.token);
    expect(ids(await api('GET', '/projects', { token: dave.token, query: { search: dave.username } }))).toEqual([
      his.id,
    ]);
  });

  it.each([
    ['/projects', { order_by: 'stars' }, 'order_by'],
    ['/projects', { sort: 'sideways' }, 'sort'],
    ['/projects/owned', { order_by: 'bogus' }, 'order_by'],
    ['/projects/search/x', { order_by: 'path' }, 'order_by'],
  ])('GET %s with %j is a 400 naming the parameter', async (path, query, field) => {
    const res = await api('GET', path, { token: carol.token, query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { [field]: ['does not have a valid value'] } });
  });

  it('accepts ci_enabled_first', async () => {
    const res = await api('GET', '/projects', { token: carol.token, query: { ci_enabled_first: true } });
    expect(res.status).toBe(200);
  });

  it('GET /projects/search/:query finds internal and public projects of others, never private ones', async () => {
    const word = unique('needle');
    const priv = await createProject(alice.token, { name: `${word} private` });
    const internal = await createProject(alice.token, { name: `${word} internal`, visibility_level: 10 });
    const pub = await createProject(alice.token, { name: `${word} public`, visibility_level: 20 });
    const res = await api('GET', `/projects/search/${word}`, {
      token: carol.token,
      query: { order_by: 'name', sort: 'asc' },
    });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([internal.id, pub.id]);
    expectPaginationHeaders(res, 2);
    const owner = await api('GET', `/projects/search/${word.toUpperCase()}`, { token: alice.token });
    expect(ids(owner).sort()).toEqual([priv.id, internal.id, pub.id].sort());
  });
});

describe('PUT /projects/:id', () => {
  it('updates settings and answers 400 per field on invalid values', async () => {
    const project = await createProject(alice.token);
    const res = await api('PUT', `/projects/${encodeURIComponent(project.path_with_namespace)}`, {
      token: alice.token,
      body: { description: 'new', default_branch: 'main', wiki_enabled: false, name: unique('Renamed') },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'new', default_branch: 'main', wiki_enabled: false });
    const bad = await api('PUT', `/projects/${project.id}`, {
      token: alice.token,
      body: { name: '', path: 'a b', visibility_level: 7 },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.message).sort()).toEqual(['path', 'visibility_level']);
  });

  it('answers 409 when renaming onto another project of the namespace', async () => {
    const a = await createProject(alice.token);
    const b = await createProject(alice.token);
    const res = await api('PUT', `/projects/${b.id}`, { token: alice.token, body: { path: a.path } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
  });
});

describe('forks', () => {
  it('POST /projects/fork/:id forks into the caller namespace', async () => {
    const source = await createProject(alice.token, { visibility_level: 10, description: 'upstream' });
    const fork = await api('POST', `/projects/fork/${source.id}`, { token: bob.token });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({
      name: source.name,
      path: source.path,
      description: 'upstream',
      owner: { id: bob.id },
      path_with_namespace: `${bob.username}/${source.path}`,
      forked_from_project: { id: source.id, path_with_namespace: source.path_with_namespace },
    });
    expect((await api('GET', `/projects/${source.id}`, { token: bob.token })).body.forks_count).toBe(1);
    const again = await api('POST', `/projects/fork/${source.id}`, { token: bob.token });
    expect(again.status).toBe(409);
  });

  it('does not fork a private project for a stranger', async () => {
    const source = await createProject(alice.token);
    expect((await api('POST', `/projects/fork/${source.id}`, { token: bob.token })).status).toBe(404);
  });

  it('admins create and delete fork relations', async () => {
    const upstream = await createProject(alice.token);
    const other = await createProject(alice.token);
    expect((await api('POST', `/projects/${other.id}/fork/${upstream.id}`, { token: alice.token })).status).toBe(403);
    const created = await api('POST', `/projects/${other.id}/fork/${upstream.id}`);
    expect(created.status).toBe(201);
    expect(created.body.forked_from_project.id).toBe(upstream.id);
    const again = await api('POST', `/projects/${other.id}/fork/${upstream.id}`);
    expect([again.status, again.body]).toEqual([409, { message: 'Project already forked' }]);
    const unknown = await api('POST', `/projects/${upstream.id}/fork/99999999`);
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Source Project Not Found' }]);
    expect((await api('DELETE', `/projects/${other.id}/fork`, { token: alice.token })).status).toBe(403);
    const removed = await api('DELETE', `/projects/${other.id}/fork`);
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('forked_from_project');
    expect((await api('DELETE', `/projects/${other.id}/fork`)).status).toBe(200);
  });
});

describe('DELETE /projects/:id', () => {
  it('removes the project and its team; deleting again still succeeds', async () => {
    const project = await createProject(alice.token);
    await api('POST', `/projects/${project.id}/members`, {
      token: alice.token,
      body: { user_id: bob.id, access_level: 30 },
    });
    const res = await api('DELETE', `/projects/${project.id}`, { token: alice.token });
    expect([res.status, res.body]).toEqual([200, true]);
    expect((await api('GET', `/projects/${project.id}`, { token: alice.token })).status).toBe(404);
    expect((await api('GET', `/projects/${project.id}/members`, { token: alice.token })).status).toBe(404);
    expect((await api('DELETE', `/projects/${project.id}`, { token: alice.token })).status).toBe(200);
    // Membership removes the team when it learns of the deletion.
    const sql = createSql({ url: stack.databaseUrl, schema: 'membership', max: 1 });
    try {
      const [{ count }] = await sql`select count(*)::int as count from members where project_id = ${project.id}`;
      expect(count).toBe(0);
    } finally {
      await sql.end();
    }
    const bobs = await api('GET', '/projects', { token: bob.token });
    expect(bobs.body.map((p: { id: number }) => p.id)).not.toContain(project.id);
  });

  it('deletes by encoded path too', async () => {
    const project = await createProject(alice.token);
    expect(
      (await api('DELETE', `/projects/${encodeURIComponent(project.path_with_namespace)}`, { token: alice.token }))
        .status,
    ).toBe(200);
    expect((await api('GET', `/projects/${project.id}`, { token: alice.token })).status).toBe(404);
  });
});

describe('GET /projects/:id/events', () => {
  it('lists created, the creator joining, joined and left, newest first, with pagination headers', async () => {
    const project = await createProject(alice.token);
    await api('POST', `/projects/${project.id}/members`, {
      token: alice.token,
      body: { user_id: bob.id, access_level: 30 },
    });
    await api('DELETE', `/projects/${project.id}/members/${bob.id}`, { token: alice.token });
    await eventually(async () => {
      const res = await api('GET', `/projects/${project.id}/events`, { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.map((e: { action_name: string }) => e.action_name)).toEqual([
        'left',
        'joined',
        'joined',
        'created',
      ]);
      expect(res.body[0]).toEqual({
        title: null,
        project_id: project.id,
        action_name: 'left',
        target_id: null,
        target_type: null,
        author_id: bob.id,
        author_username: bob.username,
        data: null,
        target_title: null,
        created_at: expect.any(String),
      });
      expect(res.body[2]).toMatchObject({
        action_name: 'joined',
        author_id: alice.id,
        author_username: alice.username,
        target_title: null,
      });
      expect(res.body[3]).toMatchObject({
        action_name: 'created',
        author_id: alice.id,
        author_username: alice.username,
      });
      expectPaginationHeaders(res, 4);
    });
    const after = await api('GET', `/projects/${project.id}`, { token: alice.token });
    expect(after.body.last_activity_at > String(project.created_at)).toBe(true);
  });

  it('hides the feed of a private project from strangers', async () => {
    const project = await createProject(alice.token);
    expect((await api('GET', `/projects/${project.id}/events`, { token: bob.token })).status).toBe(404);
  });
});

describe('what projects learns from identity', () => {
  it('follows a username and name change into paths, URLs, namespace and owner', async () => {
    const erin = await createUser();
    const project = await createProject(erin.token);
    const renamed = unique('renamed');
    expect((await api('PUT', `/users/${erin.id}`, { body: { username: renamed, name: 'Erin Renamed' } })).status).toBe(
      200,
    );
    await eventually(async () => {
      const res = await api('GET', `/projects/${project.id}`, { token: erin.token });
      expect(res.body.path_with_namespace).toBe(`${renamed}/${project.path}`);
      expect(res.body.http_url_to_repo).toBe(`${stack.externalUrl}/${renamed}/${project.path}.git`);
      // projects serves its copy of the namespace and owner: it must follow identity too.
      expect(res.body.namespace).toMatchObject({ path: renamed, name: renamed });
      expect(res.body.owner).toMatchObject({ id: erin.id, name: 'Erin Renamed', username: renamed });
      expect(res.body.name_with_namespace).toBe(`Erin Renamed / ${project.name}`);
    });
    expect(
      (await api('GET', `/projects/${encodeURIComponent(`${renamed}/${project.path}`)}`, { token: erin.token })).status,
    ).toBe(200);
  });

  it("removes a deleted user's projects", async () => {
    const frank = await createUser();
    const project = await createProject(frank.token, { visibility_level: 10 });
    expect((await api('DELETE', `/users/${frank.id}`)).status).toBe(200);
    await eventually(async () => {
      expect((await api('GET', `/projects/${project.id}`)).status).toBe(404);
    });
  });
});
