import { api, createUser, eventually, unique } from '../support/api';

const USER_FIELDS = [
  'id',
  'username',
  'name',
  'state',
  'avatar_url',
  'web_url',
  'created_at',
  'is_admin',
  'bio',
  'skype',
  'linkedin',
  'twitter',
  'website_url',
];
const FULL_ONLY = [
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
];

const newUserBody = (overrides: Record<string, unknown> = {}) => {
  const username = unique('nu');
  return { email: `${username}@example.com`, password: 'secret-pass', username, name: 'New User', ...overrides };
};

describe('GET /user', () => {
  it('returns the caller with private_token and is_admin, as GitLab 7-8 did', async () => {
    const res = await api('GET', '/user');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'root', is_admin: true, state: 'active', email: 'admin@example.com' });
    expect(res.body.private_token).toHaveLength(20);
    for (const field of [...USER_FIELDS, ...FULL_ONLY]) expect(res.body).toHaveProperty(field);
  });

  it('shows a regular user their own account settings and token', async () => {
    const user = await createUser();
    const res = await api('GET', '/user', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      username: user.username,
      is_admin: false,
      private_token: user.token,
    });
    expect(res.body.projects_limit).toEqual(expect.any(Number));
  });
});

describe('POST /users', () => {
  it('creates a user (201, full entity, no password or token in the body)', async () => {
    const body = newUserBody({ bio: 'hello', admin: false, projects_limit: 7 });
    const res = await api('POST', '/users', { body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username: body.username,
      email: body.email,
      name: 'New User',
      bio: 'hello',
      projects_limit: 7,
      is_admin: false,
      state: 'active',
    });
    expect(res.body).not.toHaveProperty('password');
    expect(res.body).not.toHaveProperty('private_token');
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
  });

  it('creates an admin when admin=true arrives as a form string', async () => {
    const body = newUserBody();
    const res = await api('POST', '/users', {
      body: new URLSearchParams({ ...body, admin: 'true' } as Record<string, string>),
    });
    expect(res.status).toBe(201);
    expect(res.body.is_admin).toBe(true);
  });

  it.each(['email', 'password', 'name', 'username'])('answers 400 when %s is missing', async (field) => {
    const body: Record<string, unknown> = newUserBody();
    delete body[field];
    const res = await api('POST', '/users', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `400 (Bad request) "${field}" not given` });
  });

  it('names the first missing attribute in GitLab order (email before username)', async () => {
    const res = await api('POST', '/users', { body: { name: 'x' } });
    expect(res.body).toEqual({ message: '400 (Bad request) "email" not given' });
  });

  it.each([
    ['email', { email: 'not-an-email' }, 'is invalid'],
    ['password', { password: 'short' }, 'is too short (minimum is 8 characters)'],
    [
      'username',
      { username: '-starts-with-dash' },
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.git'",
    ],
    [
      'username',
      { username: 'ends.git' },
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.git'",
    ],
    ['username', { username: 'api' }, 'is reserved'],
    ['projects_limit', { projects_limit: -1 }, 'must be greater than or equal to 0'],
  ])('answers 400 with a per-field message for an invalid %s', async (field, overrides, message) => {
    const res = await api('POST', '/users', { body: newUserBody(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.message[field]).toContain(message);
  });

  it('answers 400 for a value of the wrong type', async () => {
    const res = await api('POST', '/users', { body: newUserBody({ projects_limit: 'many' }) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { projects_limit: ['is invalid'] } });
  });

  it('answers 409 for a taken email or username, whatever the case', async () => {
    const first = newUserBody();
    expect((await api('POST', '/users', { body: first })).status).toBe(201);
    const sameEmail = await api('POST', '/users', { body: newUserBody({ email: first.email.toUpperCase() }) });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ message: 'Email has already been taken' });
    const sameUsername = await api('POST', '/users', { body: newUserBody({ username: first.username.toUpperCase() }) });
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body).toEqual({ message: 'Username has already been taken' });
  });

  it('gives one 201 and one 409 for two concurrent creates of the same user', async () => {
    const body = newUserBody();
    const results = await Promise.all([api('POST', '/users', { body }), api('POST', '/users', { body })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('is for admins only (403)', async () => {
    const user = await createUser();
    const res = await api('POST', '/users', { token: user.token, body: newUserBody() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });
});

describe('GET /users and /users/:id', () => {
  it('searches by username, name or email, case-insensitively', async () => {
    const marker = unique('Findme');
    const made = await api('POST', '/users', { body: newUserBody({ name: `Someone ${marker}` }) });
    const res = await api('GET', '/users', { query: { search: marker.toLowerCase() } });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([made.body.id]);
    expect(res.headers.get('x-total')).toBe('1');
  });

  it('shows admins the full entity and others the public one', async () => {
    const user = await createUser();
    const asAdmin = await api('GET', `/users/${user.id}`);
    expect(asAdmin.body).toMatchObject({ id: user.id, email: user.email });
    for (const field of FULL_ONLY) expect(asAdmin.body).toHaveProperty(field);
    const other = await createUser();
    const asOther = await api('GET', `/users/${user.id}`, { token: other.token });
    expect(asOther.status).toBe(200);
    for (const field of USER_FIELDS) expect(asOther.body).toHaveProperty(field);
    for (const field of FULL_ONLY) expect(asOther.body).not.toHaveProperty(field);
    const list = await api('GET', '/users', { token: other.token, query: { username: user.username } });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty('email');
  });

  it.each(['999999', '2147483648', 'abc', '0'])(
    'answers 404 "404 Not found" for user %s (GitLab 7.14: User.find)',
    async (id) => {
      const res = await api('GET', `/users/${id}`);
      expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }]);
    },
  );

  it('requires authentication', async () => {
    const res = await api('GET', '/users', { token: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('PUT /users/:id', () => {
  it('updates the given attributes and leaves the others', async () => {
    const user = await createUser();
    const res = await api('PUT', `/users/${user.id}`, { body: { name: 'Renamed', skype: 'sk', website_url: '' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      name: 'Renamed',
      skype: 'sk',
      email: user.email,
      username: user.username,
    });
  });

  it('renames the user and their namespace together', async () => {
    const user = await createUser();
    const username = unique('renamed');
    expect((await api('PUT', `/users/${user.id}`, { body: { username } })).body.username).toBe(username);
    const namespaces = await api('GET', '/namespaces', { token: user.token });
    expect(namespaces.body.map((n: { path: string }) => n.path)).toEqual([username]);
  });

  it('changes the password (the old one stops working)', async () => {
    const user = await createUser();
    expect((await api('PUT', `/users/${user.id}`, { body: { password: 'brand-new-pass' } })).status).toBe(200);
    expect(
      (await api('POST', '/session', { token: null, body: { login: user.username, password: user.password } })).status,
    ).toBe(401);
    expect(
      (await api('POST', '/session', { token: null, body: { login: user.username, password: 'brand-new-pass' } }))
        .status,
    ).toBe(201);
  });

  it('answers 409 when the new email belongs to someone else, 404 for nobody, 403 for non-admins', async () => {
    const [a, b] = await Promise.all([createUser(), createUser()]);
    const taken = await api('PUT', `/users/${a.id}`, { body: { email: b.email } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: 'Email has already been taken' });
    expect((await api('PUT', `/users/${a.id}`, { body: { email: a.email } })).status).toBe(200);
    const missing = await api('PUT', '/users/987654', { body: { name: 'x' } });
    // GitLab 7.14: User.find, so ActiveRecord::RecordNotFound's answer.
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
    expect(await api('PUT', '/users/abc', { body: { name: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect((await api('PUT', `/users/${a.id}`, { token: b.token, body: { name: 'x' } })).status).toBe(403);
  });

  it('answers 400 with per-field messages for invalid values', async () => {
    const user = await createUser();
    const res = await api('PUT', `/users/${user.id}`, { body: { email: 'nope', name: ' ' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual({ email: ['is invalid'], name: ["can't be blank"] });
  });
});

describe('DELETE /users/:id', () => {
  it('removes the user; deleting again is still 200 (idempotent)', async () => {
    const user = await createUser();
    const first = await api('DELETE', `/users/${user.id}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: user.id, username: user.username });
    expect((await api('GET', `/users/${user.id}`)).status).toBe(404);
    expect((await api('GET', '/user', { token: user.token })).status).toBe(401);
    const again = await api('DELETE', `/users/${user.id}`);
    expect(again.status).toBe(200);
  });

  it('is for admins only', async () => {
    const [a, b] = await Promise.all([createUser(), createUser()]);
    expect((await api('DELETE', `/users/${a.id}`, { token: b.token })).status).toBe(403);
    expect((await api('GET', `/users/${a.id}`)).status).toBe(200);
  });
});

describe('block and unblock', () => {
  it('a blocked user can neither use a token nor sign in, until unblocked', async () => {
    const user = await createUser();
    expect((await api('PUT', `/users/${user.id}/block`)).status).toBe(200);
    expect((await api('GET', `/users/${user.id}`)).body.state).toBe('blocked');
    expect((await api('GET', '/user', { token: user.token })).status).toBe(401);
    expect(
      (await api('POST', '/session', { token: null, body: { login: user.username, password: user.password } })).status,
    ).toBe(401);
    expect((await api('PUT', `/users/${user.id}/unblock`)).status).toBe(200);
    // The gateway learns of the unblock from identity's event stream (its cache TTL here is 60 s).
    await eventually(async () => expect((await api('GET', '/user', { token: user.token })).status).toBe(200));
  });
});

describe('GET /namespaces', () => {
  it('lists the caller’s own namespace, and every namespace for admins', async () => {
    const user = await createUser();
    const own = await api('GET', '/namespaces', { token: user.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual([
      expect.objectContaining({
        path: user.username,
        name: user.username,
        kind: 'user',
        owner_id: user.id,
        description: '',
      }),
    ]);
    expect(own.body[0]).toHaveProperty('created_at');
    expect(own.body[0]).toHaveProperty('updated_at');
    const all = await api('GET', '/namespaces', { query: { search: user.username } });
    expect(all.body.map((n: { owner_id: number }) => n.owner_id)).toEqual([user.id]);
    expect(Number(all.headers.get('x-total'))).toBe(1);
  });
});
