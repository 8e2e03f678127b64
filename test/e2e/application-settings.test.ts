import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRedis, eventStream, parseStreamEntry, type Redis } from '@hub/common';
import { startStack, type Stack } from '@hub/local';
import { request } from 'undici';
import { isolatedEnv, tempDir } from '../support/global-setup';
import { commitFiles, git, ok, workingCopy } from '../support/git';

// A private stack: these settings change how every project and first push behaves, so suites
// sharing the global stack in parallel must never see them. It is stopped (and with it every
// change) at the end; the last test restores the defaults through the API all the same.
describe('application settings (GitLab 8.x GET/PUT /application/settings)', () => {
  let stack: Stack;
  let dir: string;
  let redis: Redis;

  const DEFAULTS = {
    id: 1,
    default_projects_limit: 10,
    signup_enabled: true,
    signin_enabled: true,
    gravatar_enabled: true,
    sign_in_text: null,
    home_page_url: null,
    default_branch_protection: 2,
    twitter_sharing_enabled: true,
    restricted_visibility_levels: [],
    max_attachment_size: 10,
    session_expire_delay: 10080,
    default_project_visibility: 0,
    default_snippet_visibility: 0,
    restricted_signup_domains: [],
    user_oauth_applications: true,
    after_sign_out_path: null,
  };

  interface Res {
    status: number;
    body: any;
  }
  async function call(
    method: string,
    path: string,
    options: { token?: string | null; body?: unknown } = {},
  ): Promise<Res> {
    const token = options.token === undefined ? stack.rootToken : options.token;
    const headers: Record<string, string> = token ? { 'PRIVATE-TOKEN': token } : {};
    let body: string | undefined;
    if (options.body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = options.body.toString();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await request(stack.restUrl + path, { method: method as 'GET', headers, body });
    const text = await response.body.text();
    return { status: response.statusCode, body: text ? JSON.parse(text) : null };
  }
  const settings = (body: unknown) => call('PUT', '/application/settings', { body });
  const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

  async function newUser(extra: Record<string, unknown> = {}) {
    const username = unique('u');
    const password = 'password-' + randomBytes(4).toString('hex');
    const created = await call('POST', '/users', {
      body: { email: `${username}@example.com`, password, username, name: username, ...extra },
    });
    expect(created.status).toBe(201);
    const session = await call('POST', '/session', { token: null, body: { login: username, password } });
    return {
      id: created.body.id as number,
      username,
      password,
      token: session.body.private_token as string,
      created: created.body,
    };
  }

  async function eventually(check: () => Promise<void>, timeoutMs = 8000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  const remote = (pathWithNamespace: string, login: string, secret: string) => {
    const url = new URL(`${stack.restUrl.replace(/\/api\/v3$/, '')}/${pathWithNamespace}.git`);
    url.username = encodeURIComponent(login);
    url.password = encodeURIComponent(secret);
    return url.toString();
  };

  /**
   * Changes settings and waits until identity has published their settings.updated event: from
   * there, every service's copy is dropped as soon as its blocking read returns (milliseconds),
   * well before anything the test does next can read the settings.
   */
  async function changeSettings(body: Record<string, unknown>) {
    const res = await settings(body);
    expect(res.status).toBe(200);
    const updatedAt = new Date(res.body.updated_at).getTime();
    await eventually(async () => {
      const entries = (await redis.xrevrange(eventStream('identity'), '+', '-', 'COUNT', 50)) as Array<
        [string, string[]]
      >;
      const events = entries.map(([id, fields]) => parseStreamEntry('identity', id, fields));
      expect(
        events.some(
          (e) => e.type === 'settings.updated' && new Date(String(e.payload.updated_at)).getTime() === updatedAt,
        ),
      ).toBe(true);
    });
    return res;
  }

  /** A Redis reply of alternating names and values (XINFO) as an object. */
  const fieldsOf = (reply: unknown[]) =>
    Object.fromEntries(reply.flatMap((value, i) => (i % 2 === 0 ? [[String(value), reply[i + 1]]] : [])));

  /**
   * Pushes, then waits until the repository service has handled the push event: with protection
   * off, "not protected" is also what one sees before the event is handled.
   */
  async function pushAndWaitForRepository(push: () => Promise<unknown>) {
    const stream = eventStream('git_worker');
    const before = await redis.xlen(stream);
    await push();
    await eventually(async () => expect(await redis.xlen(stream)).toBeGreaterThan(before));
    await eventually(async () => {
      const lastId = fieldsOf((await redis.xinfo('STREAM', stream)) as unknown[])['last-generated-id'];
      const groups = ((await redis.xinfo('GROUPS', stream)) as unknown[][]).map(fieldsOf);
      expect(groups.find((group) => group.name === 'repository')).toMatchObject({
        'last-delivered-id': lastId,
        pending: 0,
      });
    });
  }

  beforeAll(async () => {
    dir = tempDir('hub-settings-');
    stack = await startStack({
      dataDir: dir,
      env: isolatedEnv(),
      freePorts: true,
      logs: { kind: 'files', dir },
      log: () => {},
    });
    redis = createRedis(stack.env.REDIS_URL!);
  }, 180_000);

  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  describe('reading and changing them', () => {
    it('shows GitLab 8.x defaults to admins, in its entity', async () => {
      const res = await call('GET', '/application/settings');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULTS, created_at: expect.any(String), updated_at: expect.any(String) });
      expect(Object.keys(res.body)).toHaveLength(Object.keys(DEFAULTS).length + 2);
    });

    it('answers 401 without credentials and 403 to users who are not admins, for reads and changes', async () => {
      const user = await newUser();
      for (const method of ['GET', 'PUT']) {
        expect(await call(method, '/application/settings', { token: null, body: { signup_enabled: false } })).toEqual({
          status: 401,
          body: { message: '401 Unauthorized' },
        });
        expect(
          await call(method, '/application/settings', { token: user.token, body: { signup_enabled: false } }),
        ).toEqual({ status: 403, body: { message: '403 Forbidden' } });
      }
      // A user's bad value is still a 403: GitLab checked the caller first.
      expect(
        await call('PUT', '/application/settings', { token: user.token, body: { default_projects_limit: 'many' } }),
      ).toEqual({ status: 403, body: { message: '403 Forbidden' } });
      expect((await call('GET', '/application/settings')).body.signup_enabled).toBe(true);
    });

    it.each([
      ['default_branch_protection', 3, 'is not included in the list'],
      ['default_project_visibility', 5, 'is not included in the list'],
      ['default_snippet_visibility', 15, 'is not included in the list'],
      ['default_projects_limit', -1, 'must be greater than or equal to 0'],
      ['default_projects_limit', 'many', 'is not a number'],
      ['max_attachment_size', 0, 'must be greater than 0'],
      ['session_expire_delay', -10, 'must be greater than or equal to 0'],
      ['home_page_url', 'not a url', 'should be a valid url'],
      ['after_sign_out_path', 'javascript:alert(1)', 'should be a valid url'],
      ['restricted_visibility_levels', [10, 7], "'7' is not a valid visibility level"],
      ['restricted_visibility_levels', ['public'], "'public' is not a valid visibility level"],
      // Numbers past a 32-bit integer are no level either (not a bare 400 from the graph's Int).
      ['restricted_visibility_levels', ['99999999999'], "'99999999999' is not a valid visibility level"],
      ['restricted_visibility_levels', [-99999999999], "'-99999999999' is not a valid visibility level"],
      ['signup_enabled', 'maybe', 'is invalid'],
    ])('refuses %s = %j with 400 and GitLab’s message for the field', async (field, value, message) => {
      const before = (await call('GET', '/application/settings')).body;
      const res = await settings({ [field]: value });
      expect(res).toEqual({ status: 400, body: { message: { [field]: [message] } } });
      expect((await call('GET', '/application/settings')).body).toEqual(before);
    });

    it('changes what is sent and keeps the rest; form lists and empty values work as in GitLab', async () => {
      const res = await settings({
        signup_enabled: false,
        gravatar_enabled: false,
        sign_in_text: 'Welcome, colleagues',
        home_page_url: 'https://example.com/welcome',
        after_sign_out_path: 'https://example.com/bye',
        max_attachment_size: 25,
        session_expire_delay: 60,
        restricted_signup_domains: 'example.com, example.org',
        default_snippet_visibility: 10,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        signup_enabled: false,
        gravatar_enabled: false,
        sign_in_text: 'Welcome, colleagues',
        home_page_url: 'https://example.com/welcome',
        after_sign_out_path: 'https://example.com/bye',
        max_attachment_size: 25,
        session_expire_delay: 60,
        restricted_signup_domains: ['example.com', 'example.org'],
        default_snippet_visibility: 10,
        signin_enabled: true,
        default_projects_limit: 10,
      });
      expect(new Date(res.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(res.body.created_at).getTime());
      expect((await call('GET', '/application/settings')).body).toEqual(res.body);

      const form = new URLSearchParams([
        ['restricted_visibility_levels[]', '10'],
        ['restricted_visibility_levels[]', '20'],
        ['sign_in_text', ''],
        ['signup_enabled', 'true'],
      ]);
      const formed = await call('PUT', '/application/settings', { body: form });
      expect(formed.status).toBe(200);
      expect(formed.body).toMatchObject({
        restricted_visibility_levels: [10, 20],
        sign_in_text: '',
        signup_enabled: true,
        gravatar_enabled: false,
      });
      const cleared = await settings({ restricted_visibility_levels: [] });
      expect(cleared.body.restricted_visibility_levels).toEqual([]);
    });

    it('is the same data on the GraphQL API, for admins only', async () => {
      const query =
        '{ applicationSettings { id defaultProjectsLimit defaultBranchProtection restrictedVisibilityLevels } }';
      const ask = async (token: string | null) => {
        const response = await fetch(stack.graphqlUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { 'PRIVATE-TOKEN': token } : {}) },
          body: JSON.stringify({ query }),
        });
        return (await response.json()) as { data?: any; errors?: Array<{ extensions: { code: string } }> };
      };
      expect((await ask(stack.rootToken)).data.applicationSettings).toEqual({
        id: 1,
        defaultProjectsLimit: 10,
        defaultBranchProtection: 2,
        restrictedVisibilityLevels: [],
      });
      expect((await ask((await newUser()).token)).errors?.[0]?.extensions.code).toBe('FORBIDDEN');
      expect((await ask(null)).errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    });
  });

  describe('where they take effect', () => {
    it('default_projects_limit: new users get it unless a limit is given', async () => {
      expect((await newUser()).created.projects_limit).toBe(10);
      expect((await settings({ default_projects_limit: 42 })).status).toBe(200);
      expect((await newUser()).created.projects_limit).toBe(42);
      expect((await newUser({ projects_limit: 7 })).created.projects_limit).toBe(7);
      const user = await newUser();
      expect((await call('GET', `/users/${user.id}`)).body.projects_limit).toBe(42);
      expect((await settings({ default_projects_limit: 10 })).status).toBe(200);
    });

    it('default_project_visibility: projects created without a level get it; a level given wins', async () => {
      const user = await newUser();
      const before = await call('POST', '/projects', { token: user.token, body: { name: unique('p') } });
      expect(before.body.visibility_level).toBe(0);
      expect((await settings({ default_project_visibility: 10 })).status).toBe(200);
      // Every replica drops its copy on the settings.updated event (the cache lives 60 s otherwise).
      await eventually(async () => {
        const created = await call('POST', '/projects', { token: user.token, body: { name: unique('p') } });
        expect([created.status, created.body.visibility_level]).toEqual([201, 10]);
      });
      const given = await call('POST', '/projects', {
        token: user.token,
        body: { name: unique('p'), visibility_level: 0 },
      });
      expect(given.body.visibility_level).toBe(0);
      const publicFlag = await call('POST', '/projects', {
        token: user.token,
        body: { name: unique('p'), public: true },
      });
      expect(publicFlag.body.visibility_level).toBe(20);
      expect((await settings({ default_project_visibility: 0 })).status).toBe(200);
    });

    it('restricted_visibility_levels: users may not create or change projects and snippets to them; admins may', async () => {
      const user = await newUser();
      const own = await call('POST', '/projects', {
        token: user.token,
        body: { name: unique('p'), snippets_enabled: true },
      });
      expect(own.status).toBe(201);
      // Primes every cached copy with the open settings, so the change below must travel by event.
      expect(
        (
          await call('POST', `/projects/${own.body.id}/snippets`, {
            token: user.token,
            body: { title: 't', file_name: 'a.rb', code: '1', visibility_level: 20 },
          })
        ).status,
      ).toBe(201);
      expect((await settings({ restricted_visibility_levels: [20] })).status).toBe(200);

      const refusal = {
        status: 400,
        body: { message: { visibility_level: ['Public visibility has been restricted by your GitLab administrator'] } },
      };
      await eventually(async () => {
        expect(
          await call('POST', '/projects', { token: user.token, body: { name: unique('p'), visibility_level: 20 } }),
        ).toEqual(refusal);
      });
      expect(await call('POST', '/projects', { token: user.token, body: { name: unique('p'), public: true } })).toEqual(
        refusal,
      );
      expect(
        await call('PUT', `/projects/${own.body.id}`, { token: user.token, body: { visibility_level: 20 } }),
      ).toEqual(refusal);
      expect((await call('GET', `/projects/${own.body.id}`, { token: user.token })).body.visibility_level).toBe(0);
      // Levels that are not restricted stay open.
      expect(
        (await call('PUT', `/projects/${own.body.id}`, { token: user.token, body: { visibility_level: 10 } })).body
          .visibility_level,
      ).toBe(10);
      await eventually(async () => {
        expect(
          await call('POST', `/projects/${own.body.id}/snippets`, {
            token: user.token,
            body: { title: 't', file_name: 'a.rb', code: '1', visibility_level: 20 },
          }),
        ).toEqual(refusal);
      });

      const byAdmin = await call('POST', '/projects', { body: { name: unique('p'), visibility_level: 20 } });
      expect([byAdmin.status, byAdmin.body.visibility_level]).toEqual([201, 20]);
      // POST /projects/user/:user_id ran GitLab's CreateService as that user: their rights decide, not the admin's.
      expect(
        await call('POST', `/projects/user/${user.id}`, { body: { name: unique('p'), visibility_level: 20 } }),
      ).toEqual(refusal);
      expect(await call('POST', `/projects/user/${user.id}`, { body: { name: unique('p'), public: true } })).toEqual(
        refusal,
      );
      const otherAdmin = await newUser({ admin: true });
      const forAdmin = await call('POST', `/projects/user/${otherAdmin.id}`, {
        body: { name: unique('p'), visibility_level: 20 },
      });
      expect([forAdmin.status, forAdmin.body.visibility_level, forAdmin.body.owner?.id]).toEqual([
        201,
        20,
        otherAdmin.id,
      ]);
      const openForUser = await call('POST', `/projects/user/${user.id}`, {
        body: { name: unique('p'), visibility_level: 10 },
      });
      expect([openForUser.status, openForUser.body.visibility_level]).toEqual([201, 10]);
      const changedByAdmin = await call('PUT', `/projects/${own.body.id}`, { body: { visibility_level: 20 } });
      expect([changedByAdmin.status, changedByAdmin.body.visibility_level]).toEqual([200, 20]);
      expect(
        (
          await call('POST', `/projects/${own.body.id}/snippets`, {
            body: { title: 't', file_name: 'a.rb', code: '1', visibility_level: 20 },
          })
        ).status,
      ).toBe(201);
      // Keeping a restricted level an admin gave is no change, so the owner's other edits pass.
      expect(
        (
          await call('PUT', `/projects/${own.body.id}`, {
            token: user.token,
            body: { description: 'still public', visibility_level: 20 },
          })
        ).status,
      ).toBe(200);

      expect((await settings({ restricted_visibility_levels: [] })).status).toBe(200);
      await eventually(async () => {
        expect(
          (await call('POST', '/projects', { token: user.token, body: { name: unique('p'), visibility_level: 20 } }))
            .status,
        ).toBe(201);
      });
    });

    it('default_branch_protection 0: the first push leaves the default branch unprotected', async () => {
      const owner = await newUser();
      await changeSettings({ default_branch_protection: 0 });
      const project = (await call('POST', '/projects', { token: owner.token, body: { name: unique('p') } })).body;
      const wc = await workingCopy({ 'README.md': 'x\n' });
      await pushAndWaitForRepository(async () =>
        ok(await git(wc, 'push', remote(project.path_with_namespace, owner.username, owner.password), 'master')),
      );
      const branch = await call('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token });
      expect([branch.status, branch.body.protected]).toEqual([200, false]);
    });

    it('default_branch_protection 1: the first push protects it, and Developers may still push (not force push)', async () => {
      const owner = await newUser();
      const developer = await newUser();
      await changeSettings({ default_branch_protection: 1 });
      const project = (await call('POST', '/projects', { token: owner.token, body: { name: unique('p') } })).body;
      expect(
        (
          await call('POST', `/projects/${project.id}/members`, {
            token: owner.token,
            body: { user_id: developer.id, access_level: 30 },
          })
        ).status,
      ).toBe(201);
      const wc = await workingCopy({ 'README.md': 'x\n' });
      ok(await git(wc, 'push', remote(project.path_with_namespace, owner.username, owner.password), 'master'));
      await eventually(async () => {
        expect(
          (await call('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body
            .protected,
        ).toBe(true);
      });
      await commitFiles(wc, { 'dev.txt': 'developer\n' }, 'a developer commit');
      ok(await git(wc, 'push', remote(project.path_with_namespace, developer.username, developer.password), 'master'));
      const file = await call('POST', `/projects/${project.id}/repository/files`, {
        token: developer.token,
        body: { file_path: 'api.txt', branch_name: 'master', content: 'via the API', commit_message: 'api commit' },
      });
      expect(file.status).toBe(201);
      ok(
        await git(
          wc,
          'pull',
          '-q',
          '--no-rebase',
          remote(project.path_with_namespace, developer.username, developer.password),
          'master',
        ),
      );
      ok(await git(wc, 'reset', '-q', '--hard', 'HEAD~2'));
      await commitFiles(wc, { 'other.txt': 'rewritten\n' }, 'rewrite');
      const force = await git(
        wc,
        'push',
        '--force',
        remote(project.path_with_namespace, developer.username, developer.password),
        'master',
      );
      expect(force.code).not.toBe(0);
      expect(force.stderr).toContain('You are not allowed to force push code to a protected branch on this project.');
    });

    it('default_branch_protection 1: a Developer accepts a merge request into the branch, but may not delete it by push', async () => {
      const owner = await newUser();
      const developer = await newUser();
      await changeSettings({ default_branch_protection: 1 });
      const project = (await call('POST', '/projects', { token: owner.token, body: { name: unique('p') } })).body;
      expect(
        (
          await call('POST', `/projects/${project.id}/members`, {
            token: owner.token,
            body: { user_id: developer.id, access_level: 30 },
          })
        ).status,
      ).toBe(201);
      const wc = await workingCopy({ 'README.md': 'x\n' });
      ok(await git(wc, 'push', remote(project.path_with_namespace, owner.username, owner.password), 'master'));
      await eventually(async () => {
        expect(
          (await call('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body
            .protected,
        ).toBe(true);
      });
      const asDeveloper = remote(project.path_with_namespace, developer.username, developer.password);
      ok(await git(wc, 'checkout', '-q', '-b', 'topic'));
      await commitFiles(wc, { 'topic.txt': 'topic\n' }, 'topic work');
      ok(await git(wc, 'push', asDeveloper, 'topic'));
      const mr = await call('POST', `/projects/${project.id}/merge_requests`, {
        token: developer.token,
        body: { source_branch: 'topic', target_branch: 'master', title: 'Topic' },
      });
      expect(mr.status).toBe(201);
      const merged = await call('PUT', `/projects/${project.id}/merge_request/${mr.body.id}/merge`, {
        token: developer.token,
      });
      expect([merged.status, merged.body.state]).toEqual([200, 'merged']);

      const deletion = await git(wc, 'push', asDeveloper, '--delete', 'master');
      expect(deletion.code).not.toBe(0);
      expect(deletion.stderr).toContain('You are not allowed to delete protected branches.');
      const branch = await call('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token });
      expect([branch.status, branch.body.protected]).toEqual([200, true]);
    });

    it('default_branch_protection 2 (the default): Developers may not push to the branch the first push protected', async () => {
      const owner = await newUser();
      const developer = await newUser();
      await changeSettings({ default_branch_protection: 2 });
      const project = (await call('POST', '/projects', { token: owner.token, body: { name: unique('p') } })).body;
      expect(
        (
          await call('POST', `/projects/${project.id}/members`, {
            token: owner.token,
            body: { user_id: developer.id, access_level: 30 },
          })
        ).status,
      ).toBe(201);
      const wc = await workingCopy({ 'README.md': 'x\n' });
      ok(await git(wc, 'push', remote(project.path_with_namespace, owner.username, owner.password), 'master'));
      await eventually(async () => {
        expect(
          (await call('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body
            .protected,
        ).toBe(true);
      });
      await commitFiles(wc, { 'dev.txt': 'developer\n' }, 'a developer commit');
      const push = await git(
        wc,
        'push',
        remote(project.path_with_namespace, developer.username, developer.password),
        'master',
      );
      expect(push.code).not.toBe(0);
      expect(push.stderr).toContain('You are not allowed to push code to protected branches on this project.');
      // Nor accept a merge request into it (GitLab answered 401).
      ok(
        await git(
          wc,
          'push',
          remote(project.path_with_namespace, developer.username, developer.password),
          'master:topic',
        ),
      );
      const mr = await call('POST', `/projects/${project.id}/merge_requests`, {
        token: developer.token,
        body: { source_branch: 'topic', target_branch: 'master', title: 'Topic' },
      });
      expect(mr.status).toBe(201);
      expect(
        (await call('PUT', `/projects/${project.id}/merge_request/${mr.body.id}/merge`, { token: developer.token }))
          .status,
      ).toBe(401);
    });

    it('signup_enabled and signin_enabled leave the API alone, as in GitLab (they governed its web UI)', async () => {
      const user = await newUser();
      expect((await settings({ signup_enabled: false, signin_enabled: false })).status).toBe(200);
      expect(
        (await call('POST', '/session', { token: null, body: { login: user.username, password: user.password } }))
          .status,
      ).toBe(201);
      expect((await newUser()).created.state).toBe('active');
    });

    it('goes back to the defaults', async () => {
      const { id: _id, ...writable } = DEFAULTS;
      const res = await settings({ ...writable, sign_in_text: '', home_page_url: '', after_sign_out_path: '' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...DEFAULTS, sign_in_text: '', home_page_url: '', after_sign_out_path: '' });
    });
  });
});
