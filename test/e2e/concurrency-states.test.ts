import { generateKeyPairSync } from 'node:crypto';
import {
  api,
  createProject,
  createUser,
  eventually,
  unique,
  type ApiResponse,
  type TestProject,
  type TestUser,
} from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';

// State changes asked many times at once happen once (one system note, one event), and two
// different changes racing leave a state one of them explains; identity's unique things stay unique.
const N = 16;

const parallel = <T>(n: number, call: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => call(i)));
const statuses = (results: ApiResponse[]) =>
  results.reduce<Record<string, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

let owner: TestUser;

beforeAll(async () => {
  owner = await createUser();
});

const systemNotes = async (path: string) =>
  (await api('GET', `${path}/notes`, { token: owner.token, query: { per_page: 100 } })).body
    .filter((n: { system: boolean }) => n.system)
    .map((n: { body: string }) => n.body);

describe('the same state change many times at once', () => {
  it('closes an issue once: every answer shows it closed, one "Status changed to closed" note', async () => {
    const project = await createProject(owner.token);
    const issue = (
      await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'close me' } })
    ).body;
    const path = `/projects/${project.id}/issues/${issue.id}`;
    const results = await parallel(N, () => api('PUT', path, { token: owner.token, body: { state_event: 'close' } }));
    expect(statuses(results)).toEqual({ 200: N });
    expect(results.every((r) => r.body.state === 'closed')).toBe(true);
    expect(await systemNotes(path)).toEqual(['Status changed to closed']);
  });

  describe('merge requests', () => {
    let project: TestProject;
    const branches = ['close-race', 'accept-close'];

    beforeAll(async () => {
      project = await createProject(owner.token);
      const wc = await workingCopy({ 'README.md': 'hello\n' });
      for (const name of branches) {
        ok(await git(wc, 'checkout', '-q', '-B', name, 'master'));
        ok(await git(wc, 'commit', '-q', '--allow-empty', '-m', name));
      }
      ok(
        await git(
          wc,
          'push',
          '-q',
          remoteUrl(project.path_with_namespace, owner.username, owner.token),
          'master',
          ...branches,
        ),
      );
    });

    const open = async (branch: string) =>
      (
        await api('POST', `/projects/${project.id}/merge_requests`, {
          token: owner.token,
          body: { source_branch: branch, target_branch: 'master', title: branch },
        })
      ).body;

    it('closes a merge request once: one "Status changed to closed" note', async () => {
      const mr = await open('close-race');
      const path = `/projects/${project.id}/merge_request/${mr.id}`;
      const results = await parallel(N, () => api('PUT', path, { token: owner.token, body: { state_event: 'close' } }));
      expect(statuses(results)).toEqual({ 200: N });
      expect(results.every((r) => r.body.state === 'closed')).toBe(true);
      // The note comes from the merge_request.closed event: wait for it, then make sure no second one
      // follows. A second closed event would be in the stream before the reopening's, whose note ends the wait.
      await eventually(async () => expect(await systemNotes(path)).toContain('Status changed to closed'));
      expect((await api('PUT', path, { token: owner.token, body: { state_event: 'reopen' } })).status).toBe(200);
      await eventually(async () => expect(await systemNotes(path)).toContain('Status changed to reopened'));
      expect(await systemNotes(path)).toEqual(['Status changed to closed', 'Status changed to reopened']);
    });

    it('never shows a merged merge request as closed: accepting and closing at once ends merged (with its commit) or closed (without)', async () => {
      const mr = await open('accept-close');
      const before = (await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token }))
        .body.commit.id;
      const path = `/projects/${project.id}/merge_request/${mr.id}`;
      const results = await parallel(N, (i) =>
        i % 2
          ? api('PUT', `${path}/merge`, { token: owner.token })
          : api('PUT', path, { token: owner.token, body: { state_event: 'close' } }),
      );
      expect(results.filter((r) => r.status >= 500)).toEqual([]);
      const final = (await api('GET', path, { token: owner.token })).body;
      const master = (await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token }))
        .body.commit.id;
      expect([final.state, master !== before]).toEqual(master !== before ? ['merged', true] : ['closed', false]);
      const merged = results.filter((r) => r.status === 200 && r.body.state === 'merged').length;
      expect(merged).toBe(master !== before ? 1 : 0);
    });
  });
});

describe("identity's unique things created at once", () => {
  it('creates a user once: one 201, the others 409 "Username has already been taken"', async () => {
    const username = unique('twin');
    const results = await parallel(N, (i) =>
      api('POST', '/users', {
        body: { email: `${username}-${i}@example.com`, password: 'password-123', username, name: username },
      }),
    );
    expect(statuses(results)).toEqual({ 201: 1, 409: N - 1 });
    for (const lost of results.filter((r) => r.status !== 201))
      expect(lost.body).toEqual({ message: 'Username has already been taken' });
  });

  it('creates a group once: one 201, the others 400 in 7.14 form', async () => {
    const path = unique('grp');
    const results = await parallel(N, () =>
      api('POST', '/groups', { token: owner.token, body: { name: `Group ${path}`, path } }),
    );
    expect(statuses(results)).toEqual({ 201: 1, 400: N - 1 });
    const repeat = await api('POST', '/groups', { token: owner.token, body: { name: `Group ${path}`, path } });
    for (const lost of results.filter((r) => r.status !== 201)) expect(lost.body).toEqual(repeat.body);
  });

  it('adds a group member once: one 201, the others 409 "Already exists"', async () => {
    const path = unique('grp');
    const group = (await api('POST', '/groups', { token: owner.token, body: { name: `Group ${path}`, path } })).body;
    const user = await createUser();
    const results = await parallel(N, () =>
      api('POST', `/groups/${group.id}/members`, { token: owner.token, body: { user_id: user.id, access_level: 30 } }),
    );
    expect(statuses(results)).toEqual({ 201: 1, 409: N - 1 });
    for (const lost of results.filter((r) => r.status !== 201))
      expect(lost.body).toEqual({ message: 'Already exists' });
    const members = (await api('GET', `/groups/${group.id}/members`, { token: owner.token })).body;
    expect(members.filter((m: { id: number }) => m.id === user.id).length).toBe(1);
  });

  it('adds the same deploy key once: every answer the one key, listed once', async () => {
    const project = await createProject(owner.token);
    const key = `ssh-ed25519 ${Buffer.concat([wire('ssh-ed25519'), wire(Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url'))]).toString('base64')} race@example`;
    const results = await parallel(N, (i) =>
      api('POST', `/projects/${project.id}/keys`, { token: owner.token, body: { title: `title ${i}`, key } }),
    );
    expect(statuses(results)).toEqual({ 201: N });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const listed = (await api('GET', `/projects/${project.id}/keys`, { token: owner.token })).body;
    expect(listed.length).toBe(1);
  });

  it('adds the same SSH key to a user once: one 201, the others 400 as a repeat', async () => {
    const user = await createUser();
    const key = `ssh-ed25519 ${Buffer.concat([wire('ssh-ed25519'), wire(Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url'))]).toString('base64')} race@example`;
    const results = await parallel(N, (i) =>
      api('POST', '/user/keys', { token: user.token, body: { title: `title ${i}`, key } }),
    );
    expect(statuses(results)).toEqual({ 201: 1, 400: N - 1 });
    const repeat = await api('POST', '/user/keys', { token: user.token, body: { title: 'again', key } });
    for (const lost of results.filter((r) => r.status !== 201)) expect(lost.body).toEqual(repeat.body);
  });
});

function wire(value: Buffer | string) {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}
