import { signPrincipal } from '@hub/common';
import { api, createProject, createUser, eventually, graphql, stack } from '../support/api';

describe('the gateway for internal teams', () => {
  it('answers with the same tokens on /graphql', async () => {
    const user = await createUser();
    const res = await graphql(
      '{ viewer { id: databaseId username isAdmin namespace { path kind } } }',
      {},
      { 'PRIVATE-TOKEN': user.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.viewer).toEqual({
      id: user.id,
      username: user.username,
      isAdmin: false,
      namespace: { path: user.username, kind: 'USER' },
    });
  });

  it('is anonymous without credentials and 401 with bad ones', async () => {
    const anonymous = await graphql('{ viewer { id: databaseId } }');
    expect(anonymous.body.data).toEqual({ viewer: null });
    const bad = await graphql('{ viewer { id: databaseId } }', {}, { 'PRIVATE-TOKEN': 'nope' });
    expect(bad.status).toBe(401);
    expect(bad.body.errors![0]).toMatchObject({ message: '401 Unauthorized', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('applies sudo with the same rules', async () => {
    const user = await createUser();
    const ok = await graphql(
      '{ viewer { id: databaseId } }',
      {},
      { 'PRIVATE-TOKEN': stack.rootToken, SUDO: user.username },
    );
    expect(ok.body.data.viewer.id).toBe(user.id);
    const denied = await graphql('{ viewer { id: databaseId } }', {}, { 'PRIVATE-TOKEN': user.token, SUDO: 'root' });
    expect(denied.status).toBe(403);
    expect(denied.body.errors![0].extensions.code).toBe('FORBIDDEN');
  });

  it('answers a value Postgres cannot store with BAD_REQUEST, not a 500, in any service', async () => {
    const res = await graphql(
      'query ($q: String) { users(search: $q) { count } }',
      { q: 'a\u0000b' },
      { 'PRIVATE-TOKEN': stack.rootToken },
    );
    expect(res.body.errors![0]).toMatchObject({
      message: '400 (Bad request) invalid value',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('hides other users’ private tokens, settings and email, to signed-in and anonymous callers alike', async () => {
    const [a, b] = await Promise.all([createUser(), createUser()]);
    const ask = (token: string | null) =>
      graphql(
        'query ($id: Int!) { user(id: $id) { privateToken projectsLimit email } }',
        { id: a.id },
        token ? { 'PRIVATE-TOKEN': token } : {},
      );
    expect((await ask(b.token)).body.data.user).toEqual({ privateToken: null, projectsLimit: null, email: null });
    expect((await ask(a.token)).body.data.user).toMatchObject({ projectsLimit: expect.any(Number), email: a.email });
    expect((await ask(stack.rootToken)).body.data.user).toMatchObject({ email: a.email });
    // The owner of a public project, as an anonymous caller reaches it.
    const project = await createProject(a.token, { visibility_level: 20 });
    const anonymous = await graphql(`{ project(id: ${project.id}) { owner { username email } } }`);
    expect(anonymous.body.data.project.owner).toEqual({ username: a.username, email: null });
  });

  it('drops cached principals when a token is reset (old token 401, new one works)', async () => {
    const user = await createUser();
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200); // now cached
    const reset = await graphql(
      'mutation { resetPrivateToken(input: {}) { privateToken } }',
      {},
      { 'PRIVATE-TOKEN': user.token },
    );
    const fresh = reset.body.data.resetPrivateToken.privateToken as string;
    expect(fresh).toHaveLength(20);
    expect(fresh).not.toBe(user.token);
    // The principal cache TTL is 60 s in this stack: only the identity event can make this pass.
    await eventually(async () => expect((await api('GET', '/user', { token: user.token })).status).toBe(401));
    expect((await api('GET', '/user', { token: fresh })).body.id).toBe(user.id);
  });

  it('drops cached principals when an admin flag changes', async () => {
    const user = await createUser();
    expect((await api('POST', '/users', { token: user.token, body: {} })).status).toBe(400); // cached as non-admin
    await api('PUT', `/users/${user.id}`, { body: { admin: true } });
    await eventually(async () => {
      const res = await api('GET', '/users', { token: user.token, query: { username: user.username } });
      expect(res.body[0]).toHaveProperty('email'); // the admin view
    });
  });
});

describe('subgraph protection', () => {
  const identityGraphql = `${stack.urls.identity}/graphql`;
  const post = (headers: Record<string, string>) =>
    fetch(identityGraphql, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ users { total } }' }),
    });

  it('refuses requests without a signed principal, or with a forged one', async () => {
    expect((await post({})).status).toBe(401);
    const forged = signPrincipal({ userId: 1, username: 'root', isAdmin: true, impersonatorId: null }, 'x'.repeat(40));
    expect((await post({ 'x-hub-principal': forged })).status).toBe(401);
  });

  it('accepts the gateway’s signature', async () => {
    const signed = signPrincipal(
      { userId: 1, username: 'root', isAdmin: true, impersonatorId: null },
      stack.principalSecret,
    );
    const res = await post({ 'x-hub-principal': signed });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.users.total).toBeGreaterThan(0);
  });

  it('keeps the credential lookup for the gateway alone', async () => {
    const asUser = signPrincipal(
      { userId: 1, username: 'root', isAdmin: true, impersonatorId: null },
      stack.principalSecret,
    );
    const res = await fetch(`${stack.urls.identity}/internal/principal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-principal': asUser },
      body: JSON.stringify({ privateToken: stack.rootToken }),
    });
    expect(res.status).toBe(401);
  });
});

describe('operations endpoints', () => {
  it.each(['identity', 'gateway', 'rest-facade'])('%s serves /healthz, /readyz and /metrics', async (name) => {
    const base = stack.urls[name];
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as any).status).toBe('ready');
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('process_cpu_user_seconds_total');
    expect(metrics).toContain(`service="${name}"`);
  });
});
