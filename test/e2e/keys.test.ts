import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  expectPaginationHeaders,
  graphql,
  type TestProject,
  type TestUser,
} from '../support/api';
import { hugeKeyText, wire } from '../support/ssh-keys';

// Fingerprints are unique across every key of the instance, so each test makes its own keys.
const ed25519Blob = () =>
  Buffer.concat([
    wire('ssh-ed25519'),
    wire(Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url')),
  ]);
const newKey = (comment = 'e2e@example') => `ssh-ed25519 ${ed25519Blob().toString('base64')} ${comment}`;
const rsaKey = (comment = 'rsa@example') => {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const mpint = (value: string) => {
    const bytes = Buffer.from(value, 'base64url');
    return wire(bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
  };
  return `ssh-rsa ${Buffer.concat([wire('ssh-rsa'), mpint(jwk.e!), mpint(jwk.n!)]).toString('base64')} ${comment}`;
};
const TOO_LONG = 'is too long (maximum is 5000 characters)';
const md5 = (key: string) =>
  createHash('md5')
    .update(Buffer.from(key.split(' ')[1], 'base64'))
    .digest('hex')
    .replace(/(..)(?!$)/g, '$1:');

const KEY_FIELDS = ['id', 'title', 'key', 'created_at'];
const addOwnKey = async (user: TestUser, title = 'laptop', key = newKey()) => {
  const res = await api('POST', '/user/keys', { token: user.token, body: { title, key } });
  if (res.status !== 201) throw new Error(`adding a key failed: ${res.status} ${res.text}`);
  return res.body as { id: number; title: string; key: string; created_at: string };
};
const ids = (res: { body: Array<{ id: number }> }) => res.body.map((k) => k.id);

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
});

describe('a user’s own keys (/user/keys)', () => {
  it('adds a key (201, GitLab 7.14’s SSHKey entity: id, title, key, created_at) with the whitespace around it trimmed', async () => {
    const user = await createUser();
    const key = rsaKey('me@laptop');
    const res = await api('POST', '/user/keys', {
      token: user.token,
      body: { title: 'Work laptop', key: `  ${key}\n` },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...KEY_FIELDS].sort());
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      title: 'Work laptop',
      key,
      created_at: expect.any(String),
    });
    const shown = await api('GET', `/user/keys/${res.body.id}`, { token: user.token });
    expect([shown.status, shown.body]).toEqual([200, res.body]);
  });

  it('lists the caller’s keys newest first, paginated', async () => {
    const user = await createUser();
    const first = await addOwnKey(user, 'first');
    const second = await addOwnKey(user, 'second');
    await addOwnKey(bob, 'not mine');
    const res = await api('GET', '/user/keys', { token: user.token });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([second.id, first.id]);
    expectPaginationHeaders(res, 2);
    const page2 = await api('GET', '/user/keys', { token: user.token, query: { per_page: 1, page: 2 } });
    expect(ids(page2)).toEqual([first.id]);
    expectPaginationHeaders(page2, 2, 1);
    expect(page2.headers.get('x-total-pages')).toBe('2');
    expect(page2.headers.get('link')).toContain('rel="prev"');
  });

  it('answers 404 Not found for a key of another user, also to an admin', async () => {
    const key = await addOwnKey(bob);
    for (const token of [alice.token, undefined]) {
      const res = await api('GET', `/user/keys/${key.id}`, { token });
      expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }]);
    }
    expect((await api('GET', '/user/keys/abc', { token: bob.token })).status).toBe(404);
  });

  it.each([
    ['title', { key: newKey() }],
    ['title', { title: '  ', key: newKey() }],
    ['key', { title: 'no key' }],
    ['title', {}],
  ])('refuses a key without %s: 400 "x" not given', async (missing, body) => {
    const res = await api('POST', '/user/keys', { token: alice.token, body });
    expect([res.status, res.body]).toEqual([400, { message: `400 (Bad request) "${missing}" not given` }]);
  });

  it('refuses text that is no OpenSSH public key with GitLab 7.14’s validation messages', async () => {
    const garbage = await api('POST', '/user/keys', { token: alice.token, body: { title: 't', key: 'some key' } });
    expect([garbage.status, garbage.body]).toEqual([
      400,
      { message: { key: ['is invalid'], fingerprint: ['cannot be generated'] } },
    ]);
    const badBlob = await api('POST', '/user/keys', {
      token: alice.token,
      body: { title: 't', key: 'ssh-rsa AAAAB3NzaC1yc2E= x' },
    });
    expect([badBlob.status, badBlob.body]).toEqual([400, { message: { fingerprint: ['cannot be generated'] } }]);
    // An Ed25519 blob under the ssh-rsa name: the algorithm inside the blob must match.
    const mismatch = await api('POST', '/user/keys', {
      token: alice.token,
      body: { title: 't', key: `ssh-rsa ${ed25519Blob().toString('base64')}` },
    });
    expect([mismatch.status, mismatch.body]).toEqual([400, { message: { fingerprint: ['cannot be generated'] } }]);
    const twoLines = await api('POST', '/user/keys', {
      token: alice.token,
      body: { title: 't', key: `${newKey()}\n${newKey()}` },
    });
    expect([twoLines.status, twoLines.body]).toEqual([
      400,
      { message: { key: ['is invalid', 'should be a single line'] } },
    ]);
    const longTitle = await api('POST', '/user/keys', {
      token: alice.token,
      body: { title: 'x'.repeat(256), key: newKey() },
    });
    expect([longTitle.status, longTitle.body]).toEqual([
      400,
      { message: { title: ['is too long (maximum is 255 characters)'] } },
    ]);
    expect(
      (await api('GET', '/user/keys', { token: alice.token })).body.map((k: { title: string }) => k.title),
    ).not.toContain('t');
  });

  // How fast is the bench's business (these machines are shared); here, that the answer is right.
  it('refuses a key of megabytes at once (400), reading no more of it than the length limit', async () => {
    const res = await api('POST', '/user/keys', { token: alice.token, body: { title: 'huge', key: hugeKeyText() } });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { key: [TOO_LONG, 'is invalid', 'should be a single line'], fingerprint: ['cannot be generated'] } },
    ]);
    expect(
      (await api('GET', '/user/keys', { token: alice.token })).body.map((k: { title: string }) => k.title),
    ).not.toContain('huge');
  });

  it('refuses a key any user has already: the same text, or the same key with another comment', async () => {
    const key = newKey('original');
    await addOwnKey(bob, 'bob’s', key);
    const same = await api('POST', '/user/keys', { token: alice.token, body: { title: 'copy', key } });
    expect([same.status, same.body]).toEqual([
      400,
      { message: { key: ['has already been taken'], fingerprint: ['has already been taken'] } },
    ]);
    const recommented = await api('POST', '/user/keys', {
      token: bob.token,
      body: { title: 'again', key: key.replace('original', 'other comment') },
    });
    expect([recommented.status, recommented.body]).toEqual([
      400,
      { message: { fingerprint: ['has already been taken'] } },
    ]);
  });

  it('deletes a key (200 with the key) and is idempotent; another user’s key is not touched', async () => {
    const user = await createUser();
    const key = await addOwnKey(user);
    const bobs = await addOwnKey(bob);
    const res = await api('DELETE', `/user/keys/${key.id}`, { token: user.token });
    expect([res.status, res.body]).toEqual([200, key]);
    expect(ids(await api('GET', '/user/keys', { token: user.token }))).toEqual([]);
    const again = await api('DELETE', `/user/keys/${key.id}`, { token: user.token });
    expect([again.status, again.body]).toEqual([200, {}]);
    const foreign = await api('DELETE', `/user/keys/${bobs.id}`, { token: user.token });
    expect([foreign.status, foreign.body]).toEqual([200, {}]);
    // An id that is no number names no key of the user: nothing to delete, the same 200 {}.
    for (const id of ['abc', '0', '99999999999']) {
      const bad = await api('DELETE', `/user/keys/${id}`, { token: user.token });
      expect([id, bad.status, bad.body]).toEqual([id, 200, {}]);
    }
    expect(ids(await api('GET', '/user/keys', { token: bob.token }))).toContain(bobs.id);
    // The key can be added again once it is gone.
    expect((await api('POST', '/user/keys', { token: user.token, body: { title: 'back', key: key.key } })).status).toBe(
      201,
    );
  });

  it('needs credentials', async () => {
    for (const [method, path] of [
      ['GET', '/user/keys'],
      ['POST', '/user/keys'],
      ['GET', '/user/keys/1'],
      ['DELETE', '/user/keys/1'],
    ]) {
      const res = await api(method, path, {
        token: null,
        body: method === 'POST' ? { title: 't', key: newKey() } : undefined,
      });
      expect([method, path, res.status, res.body]).toEqual([method, path, 401, { message: '401 Unauthorized' }]);
    }
  });

  it('works through sudo: an admin acting as the user adds and reads the user’s keys', async () => {
    const user = await createUser();
    const added = await api('POST', '/user/keys', {
      headers: { SUDO: user.username },
      body: { title: 'via sudo', key: newKey() },
    });
    expect(added.status).toBe(201);
    expect(ids(await api('GET', '/user/keys', { token: user.token }))).toEqual([added.body.id]);
    expect(ids(await api('GET', '/user/keys', { query: { sudo: user.id } }))).toEqual([added.body.id]);
  });
});

describe('another user’s keys (/users/:id/keys, admins only)', () => {
  it('lets an admin add a key for a user, list the user’s keys (paginated) and delete one', async () => {
    const user = await createUser();
    const res = await api('POST', `/users/${user.id}/keys`, { body: { title: 'from admin', key: newKey() } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'from admin' });
    expect(ids(await api('GET', '/user/keys', { token: user.token }))).toEqual([res.body.id]);
    const own = await addOwnKey(user, 'own');
    const list = await api('GET', `/users/${user.id}/keys`);
    expect([list.status, ids(list)]).toEqual([200, [own.id, res.body.id]]);
    expectPaginationHeaders(list, 2);
    const removed = await api('DELETE', `/users/${user.id}/keys/${own.id}`);
    expect([removed.status, removed.body]).toEqual([200, own]);
    const again = await api('DELETE', `/users/${user.id}/keys/${own.id}`);
    expect([again.status, again.body]).toEqual([200, {}]);
    expect(ids(await api('GET', `/users/${user.id}/keys`))).toEqual([res.body.id]);
  });

  it('refuses non-admins with 403, also for their own id and before looking at the attributes', async () => {
    const key = await addOwnKey(bob);
    for (const [method, path, body] of [
      ['GET', `/users/${bob.id}/keys`, undefined],
      ['GET', `/users/${alice.id}/keys`, undefined],
      ['GET', '/users/999999999/keys', undefined],
      ['POST', `/users/${bob.id}/keys`, { title: 't', key: newKey() }],
      ['POST', `/users/${bob.id}/keys`, {}],
      ['DELETE', `/users/${bob.id}/keys/${key.id}`, undefined],
      // A key id that is no number is still the admin check's business first.
      ['DELETE', `/users/${bob.id}/keys/abc`, undefined],
      ['DELETE', '/users/abc/keys/abc', undefined],
    ] as const) {
      const res = await api(method, path, { token: alice.token, body });
      expect([method, path, res.status, res.body]).toEqual([method, path, 403, { message: '403 Forbidden' }]);
    }
    const own = await api('GET', `/users/${bob.id}/keys`, { token: bob.token });
    expect(own.status).toBe(403);
    expect(ids(await api('GET', '/user/keys', { token: bob.token }))).toContain(key.id);
  });

  it('answers GitLab 7.14’s errors to admins: missing users, missing attributes, invalid and duplicate keys', async () => {
    const user = await createUser();
    const noUser = await api('GET', '/users/999999999/keys');
    expect([noUser.status, noUser.body]).toEqual([404, { message: '404 User Not Found' }]);
    const addToNoUser = await api('POST', '/users/999999999/keys', { body: { title: 't', key: newKey() } });
    expect([addToNoUser.status, addToNoUser.body]).toEqual([404, { message: '404 Not found' }]);
    const deleteOfNoUser = await api('DELETE', '/users/999999999/keys/1');
    expect([deleteOfNoUser.status, deleteOfNoUser.body]).toEqual([404, { message: '404 User Not Found' }]);
    const badKeyOfNoUser = await api('DELETE', '/users/999999999/keys/abc');
    expect([badKeyOfNoUser.status, badKeyOfNoUser.body]).toEqual([404, { message: '404 User Not Found' }]);
    const badKey = await api('DELETE', `/users/${user.id}/keys/abc`);
    expect([badKey.status, badKey.body]).toEqual([200, {}]);
    const noKey = await api('POST', `/users/${user.id}/keys`, { body: { title: 'no key' } });
    expect([noKey.status, noKey.body]).toEqual([400, { message: '400 (Bad request) "key" not given' }]);
    const noTitle = await api('POST', `/users/${user.id}/keys`, { body: { key: 'some key' } });
    expect([noTitle.status, noTitle.body]).toEqual([400, { message: '400 (Bad request) "title" not given' }]);
    const invalid = await api('POST', `/users/${user.id}/keys`, { body: { title: 't', key: 'some key' } });
    expect([invalid.status, invalid.body]).toEqual([
      400,
      { message: { key: ['is invalid'], fingerprint: ['cannot be generated'] } },
    ]);
    const taken = await addOwnKey(bob);
    const duplicate = await api('POST', `/users/${user.id}/keys`, { body: { title: 't', key: taken.key } });
    expect([duplicate.status, duplicate.body]).toEqual([
      400,
      { message: { key: ['has already been taken'], fingerprint: ['has already been taken'] } },
    ]);
  });
});

describe('deploy keys (/projects/:id/keys)', () => {
  let owner: TestUser;
  let master: TestUser;
  let developer: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  beforeAll(async () => {
    [owner, master, developer, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
    project = await createProject(owner.token);
    await addMember(project.id, master.id, 40);
    await addMember(project.id, developer.id, 30);
  });
  const keysPath = (suffix = '', p: { id: number } = project) => `/projects/${p.id}/keys${suffix}`;
  const addDeployKey = async (token: string, p: { id: number }, body: Record<string, unknown>) => {
    const res = await api('POST', keysPath('', p), { token, body });
    if (res.status !== 201) throw new Error(`adding a deploy key failed: ${res.status} ${res.text}`);
    return res.body as { id: number; title: string; key: string; created_at: string };
  };

  it('lets a Master add, list (by id and by path, paginated), show and remove deploy keys', async () => {
    const key = newKey('deploy@ci');
    const res = await api('POST', keysPath(), { token: master.token, body: { title: 'CI', key } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...KEY_FIELDS].sort());
    expect(res.body).toMatchObject({ title: 'CI', key });
    const other = await addDeployKey(owner.token, project, { title: 'Deployer', key: rsaKey() });
    const list = await api('GET', keysPath(), { token: master.token });
    expect([list.status, ids(list)]).toEqual([200, [other.id, res.body.id]]);
    expectPaginationHeaders(list, 2);
    const byPath = await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}/keys`, {
      token: owner.token,
      query: { per_page: 1 },
    });
    expect(ids(byPath)).toEqual([other.id]);
    expectPaginationHeaders(byPath, 2, 1);
    const one = await api('GET', keysPath(`/${res.body.id}`), { token: master.token });
    expect([one.status, one.body]).toEqual([200, res.body]);
    const removed = await api('DELETE', keysPath(`/${res.body.id}`), { token: master.token });
    expect([removed.status, removed.body]).toEqual([200, res.body]);
    const again = await api('DELETE', keysPath(`/${res.body.id}`), { token: master.token });
    expect([again.status, again.body]).toEqual([200, {}]);
    const gone = await api('GET', keysPath(`/${res.body.id}`), { token: master.token });
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);
    expect(ids(await api('GET', keysPath(), { token: master.token }))).toEqual([other.id]);
    // No project has it any more, so the key itself is gone: it can be a user's key now.
    expect((await api('POST', '/user/keys', { token: stranger.token, body: { title: 'mine now', key } })).status).toBe(
      201,
    );
  });

  it('refuses Developers (403) and hides a private project from strangers (404 Project Not Found)', async () => {
    const key = await addDeployKey(master.token, project, { title: 'kept', key: newKey() });
    const cases = [
      ['GET', keysPath(), undefined],
      ['GET', keysPath(`/${key.id}`), undefined],
      ['POST', keysPath(), { title: 't', key: newKey() }],
      ['DELETE', keysPath(`/${key.id}`), undefined],
    ] as const;
    for (const [method, path, body] of cases) {
      const dev = await api(method, path, { token: developer.token, body });
      expect([method, path, dev.status, dev.body]).toEqual([method, path, 403, { message: '403 Forbidden' }]);
      const outsider = await api(method, path, { token: stranger.token, body });
      expect([method, path, outsider.status, outsider.body]).toEqual([
        method,
        path,
        404,
        { message: '404 Project Not Found' },
      ]);
    }
    expect(ids(await api('GET', keysPath(), { token: master.token }))).toContain(key.id);
    // A key id that is no number: the caller's rights first, then the idempotent {}.
    for (const [who, status, body] of [
      [developer, 403, { message: '403 Forbidden' }],
      [stranger, 404, { message: '404 Project Not Found' }],
      [master, 200, {}],
    ] as const) {
      const res = await api('DELETE', keysPath('/abc'), { token: who.token });
      expect([res.status, res.body]).toEqual([status, body]);
    }
    const missing = await api('GET', '/projects/999999999/keys', { token: master.token });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('refuses a stranger on a public project with 403', async () => {
    const open = await createProject(owner.token, { visibility_level: 20 });
    const res = await api('GET', keysPath('', open), { token: stranger.token });
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('answers a key the project has already as it is (201, same id and title)', async () => {
    const key = newKey();
    const first = await addDeployKey(master.token, project, { title: 'first title', key });
    const again = await api('POST', keysPath(), {
      token: master.token,
      body: { title: 'second title', key: `${key}\n` },
    });
    expect([again.status, again.body]).toEqual([201, first]);
    const titles = (await api('GET', keysPath(), { token: master.token, query: { per_page: 100 } })).body.map(
      (k: { key: string; title: string }) => k.key === key && k.title,
    );
    expect(titles.filter(Boolean)).toEqual(['first title']);
  });

  it('adds a key of another project the caller belongs to (at any level) as it is; removing it from one project leaves the other', async () => {
    const a = await createProject(owner.token);
    const b = await createProject(owner.token);
    await addMember(a.id, master.id, 20);
    await addMember(b.id, master.id, 40);
    const key = newKey();
    const onA = await addDeployKey(owner.token, a, { title: 'shared', key });
    const onB = await api('POST', keysPath('', b), { token: master.token, body: { title: 'ignored', key } });
    expect([onB.status, onB.body]).toEqual([201, onA]);
    expect(ids(await api('GET', keysPath('', b), { token: master.token }))).toEqual([onA.id]);
    expect((await api('DELETE', keysPath(`/${onA.id}`, a), { token: owner.token })).status).toBe(200);
    expect(ids(await api('GET', keysPath('', a), { token: owner.token }))).toEqual([]);
    expect(ids(await api('GET', keysPath('', b), { token: master.token }))).toEqual([onA.id]);
  });

  it('refuses the key of a project the caller does not belong to, and a user’s key, as taken', async () => {
    const theirs = await createProject(owner.token);
    const key = newKey();
    await addDeployKey(owner.token, theirs, { title: 'theirs', key });
    const mine = await createProject(stranger.token);
    const copy = await api('POST', keysPath('', mine), { token: stranger.token, body: { title: 'copy', key } });
    expect([copy.status, copy.body]).toEqual([
      400,
      { message: { key: ['has already been taken'], fingerprint: ['has already been taken'] } },
    ]);
    const userKey = await addOwnKey(stranger);
    const asDeploy = await api('POST', keysPath('', mine), {
      token: stranger.token,
      body: { title: 'deploy', key: userKey.key },
    });
    expect([asDeploy.status, asDeploy.body]).toEqual([
      400,
      { message: { key: ['has already been taken'], fingerprint: ['has already been taken'] } },
    ]);
    expect(ids(await api('GET', keysPath('', mine), { token: stranger.token }))).toEqual([]);
  });

  it('validates as GitLab 7.14’s DeployKey did: every problem at once, no required-attribute 400', async () => {
    const nothing = await api('POST', keysPath(), { token: master.token, body: {} });
    expect([nothing.status, nothing.body]).toEqual([
      400,
      {
        message: {
          title: ["can't be blank"],
          key: ["can't be blank", 'is invalid'],
          fingerprint: ['cannot be generated'],
        },
      },
    ]);
    const noTitle = await api('POST', keysPath(), { token: master.token, body: { key: newKey() } });
    expect([noTitle.status, noTitle.body]).toEqual([400, { message: { title: ["can't be blank"] } }]);
    const garbage = await api('POST', keysPath(), {
      token: master.token,
      body: { title: 't', key: 'ssh-ed25519 not-base64!' },
    });
    expect([garbage.status, garbage.body]).toEqual([400, { message: { fingerprint: ['cannot be generated'] } }]);
  });

  it('refuses a deploy key of megabytes (400), also when it starts with a key the project has', async () => {
    const huge = hugeKeyText();
    const res = await api('POST', keysPath(), { token: master.token, body: { title: 'huge', key: huge } });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { key: [TOO_LONG, 'is invalid', 'should be a single line'], fingerprint: ['cannot be generated'] } },
    ]);
    // The first line is read for the fingerprint, as ssh-keygen read it: the project's key's.
    const existing = await addDeployKey(master.token, project, { title: 'first line', key: newKey() });
    const prefixed = await api('POST', keysPath(), {
      token: master.token,
      body: { title: 'huge', key: `${existing.key}\n${huge}` },
    });
    expect([prefixed.status, prefixed.body]).toEqual([
      400,
      {
        message: { key: [TOO_LONG, 'is invalid', 'should be a single line'], fingerprint: ['has already been taken'] },
      },
    ]);
  });

  it('drops the keys of a deleted project', async () => {
    const doomed = await createProject(owner.token);
    const key = newKey();
    await addDeployKey(owner.token, doomed, { title: 'doomed', key });
    expect((await api('DELETE', `/projects/${doomed.id}`, { token: owner.token })).status).toBe(200);
    // The project's deletion reaches identity as an event; then the key is free again.
    await eventually(async () => {
      const res = await api('POST', '/user/keys', { token: owner.token, body: { title: 'reused', key } });
      expect(res.status).toBe(201);
    }, 10_000);
  });
});

describe('keys over GraphQL', () => {
  it('shows User.keys to the user and admins only, and Project.deployKeys to Masters, with fingerprints', async () => {
    const user = await createUser();
    const key = newKey();
    await addOwnKey(user, 'gql', key);
    const query = 'query($id: Int!) { user(id: $id) { keys { count nodes { title key fingerprint } } } }';
    const own = await graphql(query, { id: user.id }, { 'PRIVATE-TOKEN': user.token });
    expect(own.body.data.user.keys).toEqual({ count: 1, nodes: [{ title: 'gql', key, fingerprint: md5(key) }] });
    const other = await graphql(query, { id: user.id }, { 'PRIVATE-TOKEN': bob.token });
    expect(other.body.data.user.keys).toBeNull();

    const project = await createProject(user.token);
    const added = await graphql(
      'mutation($projectId: Int!, $key: String) { addDeployKey(input: { projectId: $projectId, title: "gql deploy", key: $key }) { sshKey { id fingerprint } errors { code } } }',
      { projectId: project.id, key: newKey() },
      { 'PRIVATE-TOKEN': user.token },
    );
    expect(added.body.errors).toBeUndefined();
    expect(added.body.data.addDeployKey.errors).toEqual([]);
    const listed = await graphql(
      'query($id: Int!) { project(id: $id) { deployKeys { count nodes { id title } } } }',
      { id: project.id },
      { 'PRIVATE-TOKEN': user.token },
    );
    expect(listed.body.data.project.deployKeys).toEqual({
      count: 1,
      nodes: [{ id: added.body.data.addDeployKey.sshKey.id, title: 'gql deploy' }],
    });
    const refused = await graphql(
      'mutation($id: Int) { createSshKey(input: { userId: $id, title: "x", key: "y" }) { sshKey { id } } }',
      { id: user.id },
      { 'PRIVATE-TOKEN': bob.token },
    );
    expect(refused.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
