import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';

// patches/@apollo__gateway@2.14.4.patch builds the Operation used for result shaping once per
// parsed document instead of once per request. Each request's variables and each subgraph answer
// must still be its own: the same text is sent repeatedly with different values here.
describe('the gateway reusing an operation across requests (patched @apollo/gateway)', () => {
  const sent: Array<Record<string, unknown> | undefined> = [];
  let answer: Record<string, unknown> = {};
  const subgraph: GraphQLDataSource = {
    process: async ({ request }) => {
      sent.push(request.variables);
      return { data: answer };
    },
  };
  let server: ApolloServer;

  beforeAll(async () => {
    const gateway = new ApolloGateway({
      supergraphSdl: readFileSync(resolve(__dirname, '..', 'generated', 'supergraph-internal.graphql'), 'utf8'),
      buildService: () => subgraph,
    });
    server = new ApolloServer({ gateway });
    await server.start();
  });
  afterAll(() => server.stop());

  const run = async (query: string, variables: Record<string, unknown>) => {
    const response = await server.executeOperation({ query, variables });
    if (response.body.kind !== 'single') throw new Error('single result expected');
    return response.body.singleResult;
  };

  it('honours each request’s @skip and @include variables and shapes each request’s own answer', async () => {
    const query =
      'query Viewer($full: Boolean!) { viewer { id: databaseId username name @include(if: $full) state @skip(if: $full) } }';
    answer = { viewer: { id: 7, username: 'ann', name: 'Ann', state: 'ACTIVE' } };
    expect(await run(query, { full: true })).toEqual({ data: { viewer: { id: 7, username: 'ann', name: 'Ann' } } });
    expect(await run(query, { full: false })).toEqual({
      data: { viewer: { id: 7, username: 'ann', state: 'ACTIVE' } },
    });
    answer = { viewer: { id: 8, username: 'bob', name: 'Bob', state: 'blocked' } };
    expect(await run(query, { full: true })).toEqual({ data: { viewer: { id: 8, username: 'bob', name: 'Bob' } } });
    expect(sent.map((variables) => variables?.full)).toEqual([true, false, true]);
  });

  it('keeps two documents apart, though they share an operation name', async () => {
    answer = { viewer: { id: 7, username: 'ann', name: 'Ann', state: 'ACTIVE' } };
    expect(await run('query Same { viewer { id: databaseId } }', {})).toEqual({ data: { viewer: { id: 7 } } });
    expect(await run('query Same { viewer { username state } }', {})).toEqual({
      data: { viewer: { username: 'ann', state: 'ACTIVE' } },
    });
  });
});
