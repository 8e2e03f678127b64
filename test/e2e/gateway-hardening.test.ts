import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { freePort } from '@hub/local';
import { request } from 'undici';
import { createUser, stack } from '../support/api';
import { startReplica } from '../support/replica';

// The gateway's public endpoint as internal teams (and anyone who reaches it) see it: the stack's
// gateway (NODE_ENV=production, as the launcher runs it) and one started here without NODE_ENV,
// where Apollo and express would show stack traces if they were let.

describe('the gateway’s public endpoint', () => {
  let development: ChildProcess;
  let developmentUrl: string;
  let token: string;

  beforeAll(async () => {
    const port = await freePort();
    developmentUrl = `http://127.0.0.1:${port}/graphql`;
    development = await startReplica(
      'gateway/dist/main.js',
      'gateway-development',
      { GATEWAY_PORT: String(port), NODE_ENV: undefined },
      `http://127.0.0.1:${port}/readyz`,
    );
    token = (await createUser()).token;
  }, 60_000);
  afterAll(() => {
    development?.kill('SIGTERM');
  });

  const post = async (url: string, body: string, headers: Record<string, string> = {}) => {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: response.statusCode, text: await response.body.text() };
  };
  const query = (q: string) => JSON.stringify({ query: q });

  it.each([
    ['production', () => stack.graphqlUrl],
    ['development', () => developmentUrl],
  ])('answers every kind of bad request without a stack trace (%s)', async (_mode, url) => {
    const deep = `{ projects { nodes { ${'forkedFromProject { '.repeat(14)}id${' }'.repeat(14)} } } }`;
    const bodies = [
      query('{'),
      query('{ viewr { id } }'),
      query(deep),
      query(`{ ${Array.from({ length: 60 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`),
      query(`{ ${'viewer { id } '.repeat(300)} }`),
      query('{ user(id: "x") { id: databaseId } }'),
      '{"query": ',
      '[]',
      '"just a string"',
    ];
    for (const body of bodies) {
      const res = await post(url(), body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.text).not.toMatch(/stacktrace|\n\s+at |\.ts:\d+|\.js:\d+|node_modules/);
      expect(() => JSON.parse(res.text)).not.toThrow();
    }
  });

  it('refuses documents over the depth, alias and token limits with 400', async () => {
    const deep = await post(
      stack.graphqlUrl,
      query(`{ projects { nodes { ${'forkedFromProject { '.repeat(14)}id${' }'.repeat(14)} } } }`),
      { 'PRIVATE-TOKEN': token },
    );
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text).errors[0].message).toMatch(/depth limit/i);
    const aliases = await post(
      stack.graphqlUrl,
      query(`{ ${Array.from({ length: 60 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`),
      { 'PRIVATE-TOKEN': token },
    );
    expect(JSON.parse(aliases.text).errors[0].message).toMatch(/aliases limit/i);
    const long = await post(stack.graphqlUrl, query(`{ ${'viewer { id } '.repeat(300)} }`), { 'PRIVATE-TOKEN': token });
    expect(JSON.parse(long.text).errors[0].message).toMatch(/tokens/i);
  });

  it('gives field suggestions to signed-in callers only', async () => {
    const anonymous = JSON.parse((await post(stack.graphqlUrl, query('{ viewr { id } }'))).text);
    expect(anonymous.errors[0].message).toBe('Cannot query field "viewr" on type "Query".');
    const signedIn = JSON.parse(
      (await post(stack.graphqlUrl, query('{ viewr { id } }'), { 'PRIVATE-TOKEN': token })).text,
    );
    expect(signedIn.errors[0].message).toMatch(/Did you mean "viewer"/);
  });

  it('answers introspection to signed-in callers only', async () => {
    const introspection = query('{ __schema { types { name } } }');
    const anonymous = await post(stack.graphqlUrl, introspection);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const signedIn = await post(stack.graphqlUrl, introspection, { 'PRIVATE-TOKEN': token });
    expect(signedIn.status).toBe(200);
    expect(JSON.parse(signedIn.text).data.__schema.types.map((t: { name: string }) => t.name)).toContain('Project');
  });

  it('refuses persisted queries, with or without the document, so a sign-in cannot hide behind a hash', async () => {
    const document =
      'mutation ($login: String, $password: String!) { createSession(input: { login: $login, password: $password }) { session { user { id: databaseId } } } }';
    const sha256Hash = createHash('sha256').update(document).digest('hex');
    const persisted = {
      extensions: { persistedQuery: { version: 1, sha256Hash } },
      variables: { login: 'root', password: 'guess' },
    };
    for (const body of [persisted, { ...persisted, query: document }]) {
      // Apollo answers 200 (clients read the code to send the document again), with no data.
      const answer = JSON.parse((await post(stack.graphqlUrl, JSON.stringify(body))).text);
      expect(answer.data).toBeUndefined();
      expect(answer.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
        'PERSISTED_QUERY_NOT_SUPPORTED',
      ]);
    }
  });

  it('refuses a document that signs in more than once (aliases would check a password each)', async () => {
    const guesses = Array.from(
      { length: 3 },
      (_, i) => `a${i}: createSession(input: { login: "root", password: "guess-${i}" }) { session { user { id } } }`,
    ).join(' ');
    const res = await post(stack.graphqlUrl, query(`mutation { ${guesses} }`));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).errors.map((e: { message: string }) => e.message)).toContain(
      'A document may sign in only once',
    );
  });
});
