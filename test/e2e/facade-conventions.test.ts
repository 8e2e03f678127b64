import { api, createUser, stack, unique } from '../support/api';

describe('credentials', () => {
  it('answers 401 with a JSON body without a token, or with a bad one', async () => {
    for (const token of [null, 'x'.repeat(20)]) {
      const res = await api('GET', '/user', { token });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    }
  });

  it('takes private_token from the query, a form body or a JSON body (also on DELETE)', async () => {
    const inQuery = await api('GET', '/user', { token: null, query: { private_token: stack.rootToken } });
    expect(inQuery.body.username).toBe('root');
    const inForm = await api('PUT', '/users/1', {
      token: null,
      body: new URLSearchParams({ private_token: stack.rootToken, bio: 'form' }),
    });
    expect(inForm.status).toBe(200);
    const inJson = await api('PUT', '/users/1', { token: null, body: { private_token: stack.rootToken, bio: 'json' } });
    expect(inJson.body.bio).toBe('json');
    const victim = await createUser();
    const deleted = await api('DELETE', `/users/${victim.id}`, {
      token: null,
      body: { private_token: stack.rootToken },
    });
    expect(deleted.status).toBe(200);
  });

  it('answers credentials that are not printable ASCII with 401, and such a sudo value with 404, never a 5xx', async () => {
    // undici sends header values of latin1 as they are (fetch would refuse them).
    const send = async (headers: Record<string, string>) => {
      const res = await api('GET', '/user', { token: null, headers });
      return { status: res.status, body: res.body };
    };
    expect(await send({ 'PRIVATE-TOKEN': 't\u00f6k\u00e9n-t\u00f6k\u00e9n-t\u00f6k' })).toEqual({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
    expect((await send({ Authorization: 'Bearer t\u00f6k\u00e9n' })).status).toBe(401);
    expect(await send({ 'PRIVATE-TOKEN': stack.rootToken, SUDO: 'j\u00fcrgen' })).toEqual({
      status: 404,
      body: { message: '404 Not Found: No user id or username for: j\u00fcrgen' },
    });
  });

  it('accepts a private token sent as Authorization: Bearer', async () => {
    const user = await createUser();
    const res = await api('GET', '/user', { token: null, headers: { Authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.id);
  });
});

describe('request forms', () => {
  it('ignores a .json suffix', async () => {
    const res = await api('GET', '/user.json');
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('root');
    expect((await api('GET', '/users/1.json')).body.id).toBe(1);
  });

  it('accepts GET and DELETE with Content-Type: application/json and a {} body', async () => {
    expect((await api('GET', '/user', { body: '{}' })).status).toBe(200);
    const victim = await createUser();
    expect((await api('DELETE', `/users/${victim.id}`, { body: '{}' })).status).toBe(200);
  });

  it('reads values sent as JSON numbers and booleans the same as strings', async () => {
    const asJson = await api('POST', '/users', {
      body: {
        email: `${unique('j')}@example.com`,
        password: 'password1',
        username: unique('j'),
        name: 'J',
        admin: true,
        projects_limit: 3,
      },
    });
    const name = unique('s');
    const asStrings = await api('POST', '/users', {
      body: new URLSearchParams({
        email: `${name}@example.com`,
        password: 'password1',
        username: name,
        name: 'S',
        admin: 'true',
        projects_limit: '3',
      }),
    });
    for (const res of [asJson, asStrings]) {
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ is_admin: true, projects_limit: 3 });
    }
  });

  it('ignores unknown and empty parameters', async () => {
    const user = await createUser();
    const res = await api('PUT', `/users/${user.id}`, { body: { name: '', bio: 'kept', favourite_colour: 'blue' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: `User ${user.username}`, bio: 'kept' });
    expect(res.body).not.toHaveProperty('favourite_colour');
  });

  it('answers a NUL byte in any string parameter with a per-field 400, never a 500', async () => {
    const search = await api('GET', '/users', { query: { search: 'a\u0000b' } });
    expect([search.status, search.body]).toEqual([400, { message: { search: ['is invalid'] } }]);
    const session = await api('POST', '/session', {
      token: null,
      body: { login: 'ro\u0000ot', password: 'whatever1' },
    });
    expect([session.status, session.body]).toEqual([400, { message: { login: ['is invalid'] } }]);
    const create = await api('POST', '/users', {
      body: { email: 'n@example.com', password: 'password1', username: unique('nul'), name: 'a\u0000b' },
    });
    expect([create.status, create.body]).toEqual([400, { message: { name: ['is invalid'] } }]);
  });

  it('answers a malformed JSON body with a 400 JSON message', async () => {
    const res = await api('POST', '/users', { body: '{"email": ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^400/);
  });

  it('answers a body in a charset or encoding it cannot read with a 400 saying so (found by the fuzz, seed 292943048)', async () => {
    const send = async (headers: Record<string, string>) => {
      const response = await fetch(`${stack.restUrl}/user`, {
        method: 'PUT',
        headers: { 'PRIVATE-TOKEN': stack.rootToken, ...headers },
        body: 'name=x',
      });
      return { status: response.status, body: await response.json() };
    };
    expect(await send({ 'content-type': 'application/x-www-form-urlencoded; charset=utf-7' })).toEqual({
      status: 400,
      body: { message: '400 (Bad request) unsupported charset' },
    });
    expect(
      await send({ 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'x-unknown' }),
    ).toEqual({ status: 400, body: { message: '400 (Bad request) unsupported content encoding' } });
  });

  it('answers unknown routes and methods with 404 {"message":"404 Not Found"}', async () => {
    for (const [method, path] of [
      ['GET', '/nothing/here'],
      ['PATCH', '/user'],
      ['GET', 'root:/api/v4/user'],
      ['POST', '/user'],
    ]) {
      const res = await api(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Not Found' });
    }
  });
});

describe('pagination', () => {
  let marker: string;
  beforeAll(async () => {
    marker = unique('pg');
    for (let i = 0; i < 5; i++) {
      await api('POST', '/users', {
        body: { email: `${marker}${i}@example.com`, password: 'password1', username: `${marker}${i}`, name: `P ${i}` },
      });
    }
  });

  const links = (header: string | null) =>
    Object.fromEntries([...(header ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2], new URL(m[1])]));

  it('writes Link and X-* headers, keeps other parameters, and omits next on the last page', async () => {
    const page1 = await api('GET', '/users', { query: { search: marker, per_page: 2 } });
    expect(page1.body).toHaveLength(2);
    expect(page1.headers.get('x-total')).toBe('5');
    expect(page1.headers.get('x-total-pages')).toBe('3');
    expect(page1.headers.get('x-per-page')).toBe('2');
    expect(page1.headers.get('x-page')).toBe('1');
    expect(page1.headers.get('x-next-page')).toBe('2');
    expect(page1.headers.get('x-prev-page')).toBe('');
    const l1 = links(page1.headers.get('link'));
    expect(Object.keys(l1).sort()).toEqual(['first', 'last', 'next']);
    expect(l1.next.searchParams.get('search')).toBe(marker);
    expect(l1.next.searchParams.get('page')).toBe('2');
    expect(l1.last.searchParams.get('page')).toBe('3');
    expect(l1.next.pathname).toBe('/api/v3/users');

    const page2 = await api('GET', '/users', { query: { search: marker, per_page: 2, page: 2 } });
    expect(Object.keys(links(page2.headers.get('link'))).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(page2.headers.get('x-prev-page')).toBe('1');

    const page3 = await api('GET', '/users', { query: { search: marker, per_page: 2, page: 3 } });
    expect(page3.body).toHaveLength(1);
    expect(Object.keys(links(page3.headers.get('link'))).sort()).toEqual(['first', 'last', 'prev']);
    expect(page3.headers.get('x-next-page')).toBe('');

    const ids = [...page1.body, ...page2.body, ...page3.body].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(5);
  });

  it('builds absolute Link URLs from the base URL the client used', async () => {
    const res = await api('GET', '/users', {
      query: { search: marker, per_page: 2 },
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'git.example.com' },
    });
    expect(links(res.headers.get('link')).next.origin).toBe('https://git.example.com');
  });

  it('defaults to 20 per page, caps at 100, and treats junk values as defaults', async () => {
    expect((await api('GET', '/users', { query: { search: marker } })).headers.get('x-per-page')).toBe('20');
    expect((await api('GET', '/users', { query: { search: marker, per_page: 1000 } })).headers.get('x-per-page')).toBe(
      '100',
    );
    const junk = await api('GET', '/users', { query: { search: marker, per_page: 'lots', page: '-3' } });
    expect(junk.status).toBe(200);
    expect(junk.headers.get('x-per-page')).toBe('20');
    expect(junk.headers.get('x-page')).toBe('1');
  });

  it.each<[string, string]>([
    [`archived[]=${'A'.repeat(4096)}`, 'archived'],
    ['archived[]=true', 'archived'],
    ['archived=true&archived=false', 'archived'],
    ['search[a]=b', 'search'],
    ['order_by[]=name', 'order_by'],
  ])(
    'refuses the wrong shape (%#: an array, a repeated key or an object where one value is expected) with a per-field 400',
    async (query, name) => {
      const res = await api('GET', `/projects?${query}`);
      expect([res.status, res.body]).toEqual([400, { message: { [name]: ['is invalid'] } }]);
      expect(res.headers.get('link')).toBeNull();
    },
  );

  it('repeats in Link only the parameters the route knows, normalised, never unknown ones or credentials', async () => {
    const huge = 'A'.repeat(4096);
    const res = await api(
      'GET',
      `/users?search=${marker}&per_page=2&active=1&junk[]=${huge}&also=${huge}&private_token=${stack.rootToken}`,
      { token: null },
    );
    expect(res.status).toBe(200);
    const link = res.headers.get('link')!;
    expect(link.length).toBeLessThan(2000);
    const next = links(link).next;
    expect([...next.searchParams.keys()].sort()).toEqual(['active', 'page', 'per_page', 'search']);
    expect([next.searchParams.get('search'), next.searchParams.get('active')]).toEqual([marker, 'true']);
    const projects = await api('GET', '/projects/all', {
      query: { archived: 'on', order_by: 'name', per_page: 1, page: 1, ignored: 'x' },
    });
    expect([...links(projects.headers.get('link')).first.searchParams].sort()).toEqual([
      ['archived', 'true'],
      ['order_by', 'name'],
      ['page', '1'],
      ['per_page', '1'],
    ]);
  });

  it('answers a known value too long to repeat in Link with a 400 naming it', async () => {
    const res = await api('GET', '/users', { query: { search: 'a'.repeat(1025) } });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { search: ['is too long (maximum is 1024 characters)'] } },
    ]);
  });

  it('serves an empty page past the end', async () => {
    const res = await api('GET', '/users', { query: { search: marker, page: 9 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('5');
  });
});
