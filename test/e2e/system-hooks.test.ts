import { generateKeyPairSync } from 'node:crypto';
import { createRedis } from '@hub/common';
import { Webhook } from 'standardwebhooks';
import {
  api,
  createProject,
  createUser,
  eventually,
  expectPaginationHeaders,
  graphql,
  stack,
  unique,
  type TestProject,
  type TestUser,
} from '../support/api';
import { startReceiver, type ReceivedHook, type Receiver } from '../support/webhook-receiver';

// System hooks receive every system event of the stack, other test files' too: each check picks
// the deliveries of what this file made by their ids.
let receiver: Receiver;
let hook: SystemHook;
let user: TestUser;
let project: TestProject;

interface SystemHook {
  id: number;
  url: string;
  created_at: string;
  signing_secret: string;
}

const addSystemHook = async (path: string): Promise<SystemHook> => {
  const res = await api('POST', '/hooks', { body: { url: receiver.url(path) } });
  if (res.status !== 201) throw new Error(`adding a system hook failed: ${res.status} ${res.text}`);
  return res.body;
};

/** The deliveries at `path` whose body matches, once there are `count` of them. */
async function deliveriesWhere(
  path: string,
  match: Record<string, unknown>,
  count = 1,
  timeoutMs = 15_000,
): Promise<ReceivedHook[]> {
  const matching = () =>
    receiver.at(path).filter((d) => Object.entries(match).every(([key, value]) => d.body?.[key] === value));
  const deadline = Date.now() + timeoutMs;
  while (matching().length < count) {
    if (Date.now() > deadline)
      throw new Error(
        `${path}: ${matching().length} of ${count} deliveries like ${JSON.stringify(match)} after ${timeoutMs} ms`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return matching();
}

/** Lets anything sent twice arrive, then returns the matching deliveries. */
async function settled(path: string, match: Record<string, unknown>): Promise<ReceivedHook[]> {
  await new Promise((resolve) => setTimeout(resolve, 700));
  return receiver.at(path).filter((d) => Object.entries(match).every(([key, value]) => d.body?.[key] === value));
}

const verify = (delivery: ReceivedHook, secret = hook.signing_secret) =>
  new Webhook(secret).verify(delivery.text, delivery.headers as Record<string, string>);
/** A fresh OpenSSH ed25519 public key. */
const wire = (data: Buffer | string) => {
  const bytes = Buffer.from(data);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
const newKey = () => {
  const x = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return `ssh-ed25519 ${Buffer.concat([wire('ssh-ed25519'), wire(x)]).toString('base64')}`;
};

/** Ruby's xmlschema: whole seconds and Z. */
const XMLSCHEMA = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const xmlschema = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

beforeAll(async () => {
  receiver = await startReceiver();
  hook = await addSystemHook('system');
  user = await createUser({ name: 'Sally System' });
  project = await createProject(user.token);
});

afterAll(async () => {
  await api('DELETE', `/hooks/${hook.id}`);
  await receiver.close();
});

describe('managing system hooks (admins only)', () => {
  it("adds a hook: 201 with GitLab's Hook entity (id, url, created_at) and the signing secret", async () => {
    expect(hook).toEqual({
      id: expect.any(Number),
      url: receiver.url('system'),
      created_at: expect.any(String),
      signing_secret: expect.stringMatching(/^whsec_/),
      paused_until: null,
    });
    const form = await api('POST', '/hooks', { body: new URLSearchParams({ url: receiver.url('form') }) });
    expect([form.status, form.body.url]).toEqual([201, receiver.url('form')]);
    await api('DELETE', `/hooks/${form.body.id}`);
  });

  it('lists the hooks oldest first, paginated', async () => {
    const extra = [await addSystemHook('list-1'), await addSystemHook('list-2')];
    try {
      const all = await api('GET', '/hooks', { query: { per_page: 100 } });
      expect(all.status).toBe(200);
      const ids = all.body.map((h: SystemHook) => h.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      expect(ids).toEqual(expect.arrayContaining([hook.id, extra[0].id, extra[1].id]));
      expect(all.body.find((h: SystemHook) => h.id === hook.id)).toMatchObject({
        id: hook.id,
        url: hook.url,
        created_at: hook.created_at,
      });
      const second = await api('GET', '/hooks', { query: { per_page: 1, page: 2 } });
      expect(second.body).toEqual([all.body[1]]);
      expectPaginationHeaders(second, all.body.length, 1);
    } finally {
      for (const h of extra) await api('DELETE', `/hooks/${h.id}`);
    }
  });

  it("answers GitLab 7.14's errors: url missing 400, a url that does not save 404, unknown hook 404", async () => {
    expect(await api('POST', '/hooks', { body: {} })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "url" not given' },
    });
    // Rails' blank?: only whitespace is not given; a list or an object is no url.
    expect(await api('POST', '/hooks', { body: { url: '  ' } })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "url" not given' },
    });
    expect(await api('POST', '/hooks', { body: { url: [receiver.url('list')] } })).toMatchObject({
      status: 400,
      body: { message: { url: ['is invalid'] } },
    });
    for (const url of ['ftp://example.com/x', 'not a url', 'javascript:alert(1)']) {
      // GitLab 7.14 answered not_found! whenever the hook did not save.
      expect(await api('POST', '/hooks', { body: { url } })).toMatchObject({
        status: 404,
        body: { message: '404 Not Found' },
      });
    }
    expect(await api('GET', '/hooks/99999999')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api('GET', '/hooks/abc')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api('GET', '/hooks/99999999/events')).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
  });

  it('deletes idempotently: the removed hook, then null, both 200', async () => {
    const doomed = await addSystemHook('doomed');
    const first = await api('DELETE', `/hooks/${doomed.id}`);
    expect([first.status, first.body]).toEqual([
      200,
      {
        id: doomed.id,
        url: doomed.url,
        created_at: doomed.created_at,
        signing_secret: doomed.signing_secret,
        paused_until: null,
      },
    ]);
    for (const id of [doomed.id, 'abc']) {
      const again = await api('DELETE', `/hooks/${id}`);
      expect([again.status, again.text]).toEqual([200, 'null']);
    }
    expect((await api('GET', `/hooks/${doomed.id}`)).status).toBe(404);
  });

  it('refuses everyone but admins before anything else: 401 anonymous, 403 for a user', async () => {
    const requests = [
      ['GET', '/hooks', undefined],
      ['POST', '/hooks', { url: receiver.url('intruder') }],
      ['POST', '/hooks', {}],
      // Any url that would be a 400 or a 404 for an admin is a 403 for a user first.
      ['POST', '/hooks', { url: '  ' }],
      ['POST', '/hooks', { url: [receiver.url('intruder')] }],
      ['POST', '/hooks', { url: { href: receiver.url('intruder') } }],
      ['POST', '/hooks', { url: 'ftp://example.com/x' }],
      ['GET', `/hooks/${hook.id}`, undefined],
      ['GET', '/hooks/abc', undefined],
      ['GET', `/hooks/${hook.id}/events`, undefined],
      ['DELETE', `/hooks/${hook.id}`, undefined],
      ['DELETE', '/hooks/abc', undefined],
    ] as const;
    for (const [method, path, body] of requests) {
      expect([
        method,
        path,
        await api(method, path, { token: user.token, body }).then((r) => [r.status, r.body]),
      ]).toEqual([method, path, [403, { message: '403 Forbidden' }]]);
      expect([method, path, (await api(method, path, { token: null, body })).status]).toEqual([method, path, 401]);
    }
    // An admin acting as a user (sudo) is that user.
    expect((await api('GET', '/hooks', { query: { sudo: user.username } })).status).toBe(403);
    expect((await api('GET', '/hooks', { query: { sudo: user.username }, token: user.token })).status).toBe(403);
    // Nothing was added, tested or deleted.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('intruder')).toHaveLength(0);
    expect((await api('GET', '/hooks', { query: { per_page: 100 } })).body.map((h: SystemHook) => h.url)).not.toContain(
      receiver.url('intruder'),
    );
    expect(
      (await api('GET', `/hooks/${hook.id}/events`, { query: { per_page: 100 } })).body.some(
        (d: { payload: { name?: string } }) => d.payload.name === 'Ruby',
      ),
    ).toBe(false);
  });

  it('is in the graph for admins (systemHooks, systemHook) and refused to others', async () => {
    const query = `query { systemHooks(first: 100) { count nodes { id: databaseId url signingSecret } } systemHook(id: ${hook.id}) { id: databaseId url } }`;
    const asAdmin = await graphql(query, {}, { 'PRIVATE-TOKEN': stack.rootToken });
    expect(asAdmin.body.errors).toBeUndefined();
    expect(asAdmin.body.data.systemHooks.nodes).toContainEqual({
      id: hook.id,
      url: hook.url,
      signingSecret: hook.signing_secret,
    });
    expect(asAdmin.body.data.systemHook).toEqual({ id: hook.id, url: hook.url });
    const asUser = await graphql(query, {}, { 'PRIVATE-TOKEN': user.token });
    expect(asUser.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const mutation = await graphql(
      `mutation { addSystemHook(input: { url: "${receiver.url('intruder')}" }) { systemHook { id } } }`,
      {},
      { 'PRIVATE-TOKEN': user.token },
    );
    expect(mutation.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('system events', () => {
  it('user_create: name, email and user_id, signed, as X-Gitlab-Event: System Hook', async () => {
    const [delivery] = await deliveriesWhere('system', { event_name: 'user_create', user_id: user.id });
    expect(delivery.body).toEqual({
      event_name: 'user_create',
      created_at: expect.stringMatching(XMLSCHEMA),
      name: 'Sally System',
      email: user.email,
      user_id: user.id,
    });
    expect(delivery.headers['x-gitlab-event']).toBe('System Hook');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(verify(delivery)).toEqual(delivery.body);
  });

  it("a project created by a user: exactly one project_create with GitLab 7.14's fields, then the creator joins its team as Master", async () => {
    const [created] = await deliveriesWhere('system', { event_name: 'project_create', project_id: project.id });
    expect(created.body).toEqual({
      event_name: 'project_create',
      created_at: expect.stringMatching(XMLSCHEMA),
      name: project.name,
      path: project.path,
      path_with_namespace: project.path_with_namespace,
      project_id: project.id,
      owner_name: 'Sally System',
      owner_email: user.email,
      project_visibility: 'private',
    });
    expect(Object.keys(created.body)).toEqual([
      'event_name',
      'created_at',
      'name',
      'path',
      'path_with_namespace',
      'project_id',
      'owner_name',
      'owner_email',
      'project_visibility',
    ]);
    expect(verify(created)).toEqual(created.body);
    const [joined] = await deliveriesWhere('system', { event_name: 'user_add_to_team', project_id: project.id });
    expect(joined.body).toEqual({
      event_name: 'user_add_to_team',
      created_at: expect.stringMatching(XMLSCHEMA),
      project_name: project.name,
      project_path: project.path,
      project_id: project.id,
      user_name: 'Sally System',
      user_email: user.email,
      access_level: 'Master',
      project_visibility: 'private',
    });
    expect(await settled('system', { event_name: 'project_create', project_id: project.id })).toHaveLength(1);
  });

  it('user_add_to_team and user_remove_from_team when the team changes', async () => {
    const member = await createUser({ name: 'Tim Teammate' });
    expect(
      (
        await api('POST', `/projects/${project.id}/members`, {
          token: user.token,
          body: { user_id: member.id, access_level: 30 },
        })
      ).status,
    ).toBe(201);
    const [added] = await deliveriesWhere('system', {
      event_name: 'user_add_to_team',
      project_id: project.id,
      user_email: member.email,
    });
    expect(added.body).toEqual({
      event_name: 'user_add_to_team',
      created_at: expect.stringMatching(XMLSCHEMA),
      project_name: project.name,
      project_path: project.path,
      project_id: project.id,
      user_name: 'Tim Teammate',
      user_email: member.email,
      access_level: 'Developer',
      project_visibility: 'private',
    });
    expect((await api('DELETE', `/projects/${project.id}/members/${member.id}`, { token: user.token })).status).toBe(
      200,
    );
    const [removed] = await deliveriesWhere('system', {
      event_name: 'user_remove_from_team',
      project_id: project.id,
      user_email: member.email,
    });
    expect(removed.body).toMatchObject({
      project_id: project.id,
      user_name: 'Tim Teammate',
      access_level: 'Developer',
    });
  });

  it('delivers an event that reaches the stream twice (a relay that crashed before its delete) once', async () => {
    const member = await createUser();
    await api('POST', `/projects/${project.id}/members`, {
      token: user.token,
      body: { user_id: member.id, access_level: 20 },
    });
    await deliveriesWhere('system', { event_name: 'user_add_to_team', user_email: member.email });
    const redis = createRedis(stack.redisUrl, { blocking: true });
    try {
      const entries = (await redis.xrevrange('events:membership', '+', '-', 'COUNT', 500)) as Array<[string, string[]]>;
      const original = entries.find(
        ([, fields]) =>
          fields.includes('member.added') && JSON.parse(fields[fields.indexOf('payload') + 1]).user_id === member.id,
      );
      expect(original).toBeDefined();
      await redis.xadd('events:membership', '*', ...original![1]);
    } finally {
      redis.disconnect();
    }
    // A later event on the same stream arriving proves the copy was read before it.
    await api('DELETE', `/projects/${project.id}/members/${member.id}`, { token: user.token });
    await deliveriesWhere('system', { event_name: 'user_remove_from_team', user_email: member.email });
    expect(await settled('system', { event_name: 'user_add_to_team', user_email: member.email })).toHaveLength(1);
  });

  it('project_destroy and user_destroy', async () => {
    const doomed = await createProject(user.token);
    await deliveriesWhere('system', { event_name: 'project_create', project_id: doomed.id });
    expect((await api('DELETE', `/projects/${doomed.id}`, { token: user.token })).status).toBe(200);
    const [destroyed] = await deliveriesWhere('system', { event_name: 'project_destroy', project_id: doomed.id });
    expect(destroyed.body).toEqual({
      event_name: 'project_destroy',
      // The project's created_at, as GitLab sent it.
      created_at: xmlschema(String(doomed.created_at)),
      name: doomed.name,
      path: doomed.path,
      path_with_namespace: doomed.path_with_namespace,
      project_id: doomed.id,
      owner_name: 'Sally System',
      owner_email: user.email,
      project_visibility: 'private',
    });
    const leaving = await createUser({ name: 'Lee Leaving' });
    const since = (await api('GET', `/users/${leaving.id}`)).body.created_at as string;
    expect((await api('DELETE', `/users/${leaving.id}`)).status).toBe(200);
    const [gone] = await deliveriesWhere('system', { event_name: 'user_destroy', user_id: leaving.id });
    expect(gone.body).toEqual({
      event_name: 'user_destroy',
      created_at: xmlschema(since),
      name: 'Lee Leaving',
      email: leaving.email,
      user_id: leaving.id,
    });
  });

  it("project_destroy for a project deleted with its user: the user's namespace name as owner, no email (the user is gone)", async () => {
    const owner = await createUser({ name: 'Dee Departing' });
    const owned = await createProject(owner.token);
    await deliveriesWhere('system', {
      event_name: 'project_create',
      project_id: owned.id,
      owner_name: 'Dee Departing',
    });
    // Hooks keeps the users it looked up for 5 s (services/hooks/src/main.ts, DIRECTORY_TTL_MS);
    // within that, project_destroy still names and mails the user, as GitLab did. Past it, it
    // asks identity, which has deleted the user first.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect((await api('DELETE', `/users/${owner.id}`)).status).toBe(200);
    const [destroyed] = await deliveriesWhere('system', { event_name: 'project_destroy', project_id: owned.id });
    expect(destroyed.body).toEqual({
      event_name: 'project_destroy',
      created_at: xmlschema(String(owned.created_at)),
      name: owned.name,
      path: owned.path,
      path_with_namespace: `${owner.username}/${owned.path}`,
      project_id: owned.id,
      // Identity deleted the user before projects deleted the project: their name and email are
      // gone, their namespace's name (the username) is in the project's event.
      owner_name: owner.username,
      owner_email: '',
      project_visibility: 'private',
    });
  });

  it("project_destroy for a project deleted with its group: the group's name (not its path) as owner, no email", async () => {
    const path = unique('gonegrp');
    const created = await api('POST', '/groups', { token: user.token, body: { name: `Gone ${path}`, path } });
    expect(created.status).toBe(201);
    const group = created.body as { id: number; name: string; path: string };
    const inGroup = await createProject(user.token, { namespace_id: group.id });
    await deliveriesWhere('system', { event_name: 'project_create', project_id: inGroup.id });
    expect((await api('DELETE', `/groups/${group.id}`, { token: user.token })).status).toBe(200);
    const [destroyed] = await deliveriesWhere('system', { event_name: 'project_destroy', project_id: inGroup.id });
    expect(destroyed.body).toEqual({
      event_name: 'project_destroy',
      created_at: xmlschema(String(inGroup.created_at)),
      name: inGroup.name,
      path: inGroup.path,
      path_with_namespace: `${group.path}/${inGroup.path}`,
      project_id: inGroup.id,
      owner_name: group.name,
      owner_email: '',
      project_visibility: 'private',
    });
    expect(group.name).not.toBe(group.path);
  });
});

describe('group and key events', () => {
  it('group_create, user_add_to_group for its Owner and a new member, user_remove_from_group, group_destroy', async () => {
    const path = unique('sysgrp');
    const created = await api('POST', '/groups', { token: user.token, body: { name: `Group ${path}`, path } });
    expect(created.status).toBe(201);
    const group = created.body as { id: number; name: string; path: string };
    const [groupCreated] = await deliveriesWhere('system', { event_name: 'group_create', group_id: group.id });
    expect(groupCreated.body).toEqual({
      event_name: 'group_create',
      created_at: expect.stringMatching(XMLSCHEMA),
      name: group.name,
      path: group.path,
      group_id: group.id,
      owner_name: 'Sally System',
      owner_email: user.email,
    });
    const [ownerJoined] = await deliveriesWhere('system', {
      event_name: 'user_add_to_group',
      group_id: group.id,
      user_id: user.id,
    });
    expect(ownerJoined.body).toEqual({
      event_name: 'user_add_to_group',
      created_at: expect.stringMatching(XMLSCHEMA),
      group_name: group.name,
      group_path: group.path,
      group_id: group.id,
      user_name: 'Sally System',
      user_email: user.email,
      user_id: user.id,
      group_access: 'Owner',
    });
    const member = await createUser({ name: 'Gina Grouped' });
    expect(
      (
        await api('POST', `/groups/${group.id}/members`, {
          token: user.token,
          body: { user_id: member.id, access_level: 30 },
        })
      ).status,
    ).toBe(201);
    const [added] = await deliveriesWhere('system', {
      event_name: 'user_add_to_group',
      group_id: group.id,
      user_id: member.id,
    });
    expect(added.body).toMatchObject({
      user_name: 'Gina Grouped',
      user_email: member.email,
      group_access: 'Developer',
    });
    expect((await api('DELETE', `/groups/${group.id}/members/${member.id}`, { token: user.token })).status).toBe(200);
    const [removed] = await deliveriesWhere('system', {
      event_name: 'user_remove_from_group',
      group_id: group.id,
      user_id: member.id,
    });
    expect(removed.body).toMatchObject({
      group_name: group.name,
      user_name: 'Gina Grouped',
      group_access: 'Developer',
    });

    // A project of the group: the group is its owner (no email), and its creator joins no team.
    const inGroup = await createProject(user.token, { namespace_id: group.id });
    const [projectCreated] = await deliveriesWhere('system', { event_name: 'project_create', project_id: inGroup.id });
    expect(projectCreated.body).toMatchObject({
      path_with_namespace: `${group.path}/${inGroup.path}`,
      owner_name: group.name,
      owner_email: '',
    });
    expect(await settled('system', { event_name: 'user_add_to_team', project_id: inGroup.id })).toHaveLength(0);

    expect((await api('DELETE', `/groups/${group.id}`, { token: user.token })).status).toBe(200);
    const [destroyed] = await deliveriesWhere('system', { event_name: 'group_destroy', group_id: group.id });
    expect(destroyed.body).toMatchObject({ name: group.name, path: group.path, group_id: group.id });
  });

  it("key_create and key_destroy for a user's key; deploykey_create for a deploy key, as GitLab 7.14 named it", async () => {
    const key = newKey();
    const added = await api('POST', '/user/keys', { token: user.token, body: { title: 'laptop', key } });
    expect(added.status).toBe(201);
    const [created] = await deliveriesWhere('system', { event_name: 'key_create', id: added.body.id });
    expect(created.body).toEqual({
      event_name: 'key_create',
      created_at: expect.stringMatching(XMLSCHEMA),
      key,
      id: added.body.id,
      username: user.username,
    });
    expect((await api('DELETE', `/user/keys/${added.body.id}`, { token: user.token })).status).toBe(200);
    const [destroyed] = await deliveriesWhere('system', { event_name: 'key_destroy', id: added.body.id });
    // GitLab sent the key's own created_at, for its destroy too.
    expect(destroyed.body).toEqual({ ...created.body, event_name: 'key_destroy' });
    const deployKey = newKey();
    const deploy = await api('POST', `/projects/${project.id}/keys`, {
      token: user.token,
      body: { title: 'ci', key: deployKey },
    });
    expect(deploy.status).toBe(201);
    const [deployCreated] = await deliveriesWhere('system', { event_name: 'deploykey_create', id: deploy.body.id });
    expect(deployCreated.body).toEqual({
      event_name: 'deploykey_create',
      created_at: expect.stringMatching(XMLSCHEMA),
      key: deployKey,
      id: deploy.body.id,
    });
  });
});

describe('testing a hook, its log, and removing it', () => {
  it("GET /hooks/:id sends GitLab 7.14's sample project_create to the hook and answers with it", async () => {
    const tested = await addSystemHook('tested');
    try {
      const res = await api('GET', `/hooks/${tested.id}`);
      const sample = {
        event_name: 'project_create',
        name: 'Ruby',
        path: 'ruby',
        project_id: 1,
        owner_name: 'Someone',
        owner_email: 'example@gitlabhq.com',
      };
      expect([res.status, res.body]).toEqual([200, sample]);
      const [delivery] = await deliveriesWhere('tested', { name: 'Ruby' });
      expect(delivery.body).toEqual(sample);
      expect(delivery.headers['x-gitlab-event']).toBe('System Hook');
      expect(verify(delivery, tested.signing_secret)).toEqual(sample);
    } finally {
      await api('DELETE', `/hooks/${tested.id}`);
    }
  });

  it('logs every delivery: GET /hooks/:id/events and the graph show payload, state and attempts', async () => {
    const logged = await addSystemHook('logged');
    try {
      await api('GET', `/hooks/${logged.id}`);
      const someone = await createUser();
      await deliveriesWhere('logged', { event_name: 'user_create', user_id: someone.id });
      let log: any[] = [];
      await eventually(async () => {
        const res = await api('GET', `/hooks/${logged.id}/events`, { query: { per_page: 100 } });
        log = res.body.filter(
          (d: { payload: { name?: string; user_id?: number } }) =>
            d.payload.name === 'Ruby' || d.payload.user_id === someone.id,
        );
        expect(log.map((d) => d.state)).toEqual(['delivered', 'delivered']);
      }, 10_000);
      // Newest first.
      expect(log.map((d) => d.payload.event_name)).toEqual(['user_create', 'project_create']);
      expect(log[0]).toMatchObject({
        hook_id: logged.id,
        event_name: 'System Hook',
        webhook_id: expect.stringMatching(/^msg_/),
      });
      expect(log[0].attempts).toEqual([expect.objectContaining({ response_status: 200, error: null })]);
      expect(log[0].attempts[0].request_headers['x-gitlab-event']).toBe('System Hook');
      const paged = await api('GET', `/hooks/${logged.id}/events`, { query: { per_page: 1 } });
      expect(paged.body).toHaveLength(1);
      expect(Number(paged.headers.get('x-total'))).toBeGreaterThanOrEqual(2);
      const inGraph = await graphql(
        `
          query ($id: Int!) {
            systemHook(id: $id) {
              deliveries(first: 100) {
                count
                nodes {
                  id: databaseId
                  eventName
                  state
                  payload
                }
              }
            }
          }
        `,
        { id: logged.id },
        { 'PRIVATE-TOKEN': stack.rootToken },
      );
      expect(inGraph.body.data.systemHook.deliveries.nodes.map((d: { id: number }) => d.id)).toEqual(
        expect.arrayContaining(log.map((d) => d.id)),
      );
      // One delivery by id, only under the hook it went to.
      const one = await graphql(
        `
          query ($id: Int!, $other: Int!, $delivery: Int!) {
            mine: systemHook(id: $id) {
              delivery(id: $delivery) {
                id
                databaseId
                hookId
                eventName
              }
            }
            other: systemHook(id: $other) {
              delivery(id: $delivery) {
                databaseId
              }
            }
          }
        `,
        { id: logged.id, other: hook.id, delivery: log[0].id },
        { 'PRIVATE-TOKEN': stack.rootToken },
      );
      expect(one.body.errors).toBeUndefined();
      expect(one.body.data).toEqual({
        mine: {
          delivery: {
            id: `gid://hub/HookDelivery/${log[0].id}`,
            databaseId: log[0].id,
            hookId: logged.id,
            eventName: 'System Hook',
          },
        },
        other: { delivery: null },
      });
      // A re-send goes out again with the same webhook-id.
      const resent = await api('POST', `/hooks/${logged.id}/events/${log[0].id}/resend`);
      expect([resent.status, resent.body.state]).toEqual([201, 'pending']);
      const copies = await deliveriesWhere('logged', { event_name: 'user_create', user_id: someone.id }, 2);
      expect(copies[1].headers['webhook-id']).toBe(copies[0].headers['webhook-id']);
    } finally {
      await api('DELETE', `/hooks/${logged.id}`);
    }
  });

  it('a deleted hook receives nothing more', async () => {
    const dropped = await addSystemHook('dropped');
    const first = await createUser();
    await deliveriesWhere('dropped', { event_name: 'user_create', user_id: first.id });
    expect((await api('DELETE', `/hooks/${dropped.id}`)).status).toBe(200);
    const second = await createUser();
    // The hook still in place receives the event; the deleted one does not.
    await deliveriesWhere('system', { event_name: 'user_create', user_id: second.id });
    expect(await settled('dropped', { user_id: second.id })).toHaveLength(0);
  });
});
