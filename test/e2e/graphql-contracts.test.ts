import { INTERNAL_GRAPHQL_PATH, LIMITED_HEADER, signLimited } from '@hub/common';
import {
  createProject,
  createUser,
  graphql,
  internalGraphql,
  stack,
  type TestProject,
  type TestUser,
} from '../support/api';

// The gateway serves two contracts of one graph: the public one at /graphql, for internal teams,
// and the facade's at /internal/graphql, which only a call signed with the shared secret reaches.
// What only the facade needs (authorization shortcuts, shard names) is not in the public one.

const FACADE_ONLY = {
  Query: ['repositoryReads'],
  Project: ['gitAccess', 'repositoryStorage', 'canDownloadCode'],
};

describe('the public and internal contracts', () => {
  let owner: TestUser;
  let project: TestProject;
  beforeAll(async () => {
    owner = await createUser();
    project = await createProject(owner.token);
  });

  const fieldsOf = async (type: string, ask: typeof graphql) => {
    const answer = await ask<{ __type: { fields: Array<{ name: string }> } }>(
      'query ($type: String!) { __type(name: $type) { fields { name } } }',
      { type },
      { 'PRIVATE-TOKEN': owner.token },
    );
    return answer.body.data!.__type.fields.map((field) => field.name);
  };

  it('leaves what only the facade needs out of the public schema, and keeps it in the internal one', async () => {
    for (const [type, fields] of Object.entries(FACADE_ONLY)) {
      const [publicFields, internalFields] = [await fieldsOf(type, graphql), await fieldsOf(type, internalGraphql)];
      for (const field of fields) {
        expect([type, field, publicFields.includes(field)]).toEqual([type, field, false]);
        expect([type, field, internalFields.includes(field)]).toEqual([type, field, true]);
      }
    }
    expect(await fieldsOf('Project', graphql)).toEqual(expect.arrayContaining(['id', 'name', 'repository']));
  });

  it('answers a public caller asking for a facade-only field as for a field that does not exist', async () => {
    const hidden = await graphql(
      `{ project(id: ${project.id}) { gitAccess { download } } }`,
      {},
      { 'PRIVATE-TOKEN': owner.token },
    );
    const missing = await graphql(
      `{ project(id: ${project.id}) { noSuchField } }`,
      {},
      { 'PRIVATE-TOKEN': owner.token },
    );
    expect(hidden.status).toBe(400);
    expect(hidden.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(hidden.body.errors?.[0]?.message).toMatch(/Cannot query field "gitAccess" on type "Project"/);
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const internal = await internalGraphql(
      `{ project(id: ${project.id}) { gitAccess { download push } } }`,
      {},
      { 'PRIVATE-TOKEN': owner.token },
    );
    expect(internal.body).toEqual({ data: { project: { gitAccess: { download: true, push: true } } } });
    // The internal contract's answers carry no cost report: the facade reads none.
    expect(internal.body).not.toHaveProperty('extensions');
  });

  it('tells every public answer its cost, the most an operation may cost, and where the caller stands', async () => {
    const ask = async (query: string) => {
      const response = await fetch(stack.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'PRIVATE-TOKEN': owner.token },
        body: JSON.stringify({ query }),
      });
      const body = (await response.json()) as { extensions: { cost: { requested: number; rateLimit: unknown } } };
      return { body, header: (name: string) => Number(response.headers.get(name)) };
    };
    const small = await ask('{ viewer { id: databaseId } }');
    const larger = await ask(
      `{ viewer { id: databaseId username } project(id: ${project.id}) { name owner { username } repository { branches { name } } } }`,
    );
    for (const answer of [small, larger])
      expect(answer.body.extensions).toEqual({
        cost: {
          requested: expect.any(Number),
          limit: Number(stack.env.GRAPHQL_MAX_COST ?? 5000),
          // The standing the answer's RateLimit-* headers give.
          rateLimit: {
            limit: answer.header('ratelimit-limit'),
            remaining: answer.header('ratelimit-remaining'),
            resetSeconds: answer.header('ratelimit-reset'),
          },
        },
      });
    expect(small.body.extensions.cost.requested).toBeGreaterThan(0);
    expect(larger.body.extensions.cost.requested).toBeGreaterThan(small.body.extensions.cost.requested);
  });

  it('refuses the internal contract to a call without the facade’s note, or with a forged one', async () => {
    const url = stack.graphqlUrl.replace(/\/graphql$/, INTERNAL_GRAPHQL_PATH);
    const ask = async (headers: Record<string, string>) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'PRIVATE-TOKEN': owner.token, ...headers },
        body: JSON.stringify({ query: '{ viewer { id: databaseId } }' }),
      });
      return { status: response.status, body: await response.json() };
    };
    const refusal = { errors: [{ message: '403 Forbidden', extensions: { code: 'FORBIDDEN' } }] };
    expect(await ask({})).toEqual({ status: 403, body: refusal });
    expect(await ask({ [LIMITED_HEADER]: 'garbage' })).toEqual({ status: 403, body: refusal });
    expect(await ask({ [LIMITED_HEADER]: signLimited('127.0.0.1', 'not-the-secret-'.repeat(3)) })).toEqual({
      status: 403,
      body: refusal,
    });
    expect(await ask({ [LIMITED_HEADER]: signLimited('127.0.0.1', stack.principalSecret) })).toEqual({
      status: 200,
      body: { data: { viewer: { id: owner.id } } },
    });
  });
});
