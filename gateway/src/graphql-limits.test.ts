import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApolloServer } from '@apollo/server';
import { Supergraph } from '@apollo/federation-internals';
import { ANONYMOUS, CONFIG_TABLE, loadConfig } from '@hub/common';
import { parse, print, specifiedRules, validate } from 'graphql';
import type { GatewayContext } from './context';
import { facadeOperations } from './facade-operations.test-support';
import { graphqlProtection, limitsOf } from './graphql-limits';
import { oneSignInPerDocument } from './sign-ins';

// The gateway's limits with their defaults, as every process without settings runs them.
const limits = limitsOf(
  loadConfig(['GRAPHQL_MAX_DEPTH', 'GRAPHQL_MAX_ALIASES', 'GRAPHQL_MAX_TOKENS', 'GRAPHQL_MAX_COST'] as const, {
    env: {},
  }),
);
const protection = graphqlProtection(limits);
const schema = Supergraph.build(
  readFileSync(resolve(__dirname, '..', 'generated', 'supergraph-internal.graphql'), 'utf8'),
)
  .apiSchema()
  .toGraphQLJSSchema();

const signedIn: GatewayContext = {
  principal: { userId: 1, username: 'root', isAdmin: true, impersonatorId: null },
  signedPrincipal: '',
};
const anonymous: GatewayContext = { principal: ANONYMOUS, signedPrincipal: '' };

describe('the facade operations under the gateway limits', () => {
  const operations = facadeOperations();

  it('finds the facade operations', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it.each(operations.map((o) => [o.name, o.document] as const))('%s passes every limit', (_name, document) => {
    // Parsed as the gateway parses it (the token limit), then validated with its rules.
    const reparsed = parse(print(document), protection.parseOptions);
    const errors = validate(schema, reparsed, [...specifiedRules, ...protection.validationRules, oneSignInPerDocument]);
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it('keeps the defaults in the configuration table', () => {
    expect(limits).toEqual({
      maxDepth: Number(CONFIG_TABLE.GRAPHQL_MAX_DEPTH.fallback),
      maxAliases: Number(CONFIG_TABLE.GRAPHQL_MAX_ALIASES.fallback),
      maxTokens: Number(CONFIG_TABLE.GRAPHQL_MAX_TOKENS.fallback),
      maxCost: Number(CONFIG_TABLE.GRAPHQL_MAX_COST.fallback),
    });
  });
});

describe('the gateway limits on hostile documents', () => {
  // The composed API schema without resolvers: every field answers null, which is enough to see
  // what the request pipeline refuses before anything would be fetched.
  const server = new ApolloServer<GatewayContext>({
    schema,
    validationRules: protection.validationRules,
    parseOptions: protection.parseOptions,
    plugins: protection.plugins,
    includeStacktraceInErrorResponses: false,
  });
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  const run = async (query: string, contextValue: GatewayContext = signedIn) => {
    const response = await server.executeOperation({ query }, { contextValue });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    return { status: response.http.status, errors: response.body.singleResult.errors ?? [] };
  };
  const nested = (depth: number) =>
    'query { projects(page: 1, perPage: 1) { nodes { ' +
    'forkedFromProject { '.repeat(depth) +
    'id' +
    ' }'.repeat(depth) +
    ' } } }';

  it('refuses a document nested deeper than the limit, not one within it', async () => {
    const deep = await run(nested(limits.maxDepth));
    expect(deep.errors[0]?.message).toMatch(/depth limit/i);
    expect(deep.status).toBe(400);
    expect((await run(nested(2))).errors.map((e) => e.message).join()).not.toMatch(/limit/i);
  });

  it('refuses too many aliases', async () => {
    const aliases = Array.from({ length: limits.maxAliases + 1 }, (_, i) => `a${i}: viewer { id }`).join(' ');
    const res = await run(`query { ${aliases} }`);
    expect(res.errors[0]?.message).toMatch(/aliases limit/i);
    expect(res.status).toBe(400);
  });

  it('refuses a document of too many tokens', async () => {
    const res = await run(`query { ${'viewer { id } '.repeat(limits.maxTokens / 4)} }`);
    expect(res.errors[0]?.message).toMatch(/more tha[nt] \d+ tokens/i);
    expect(res.status).toBe(400);
  });

  it('refuses a document costlier than the limit', async () => {
    // Within the token, alias and depth limits: one fragment, spread under many aliases.
    const fragment =
      'fragment F on Project { id name description webUrl tagList namespace { id name path } owner { id username name } hooks { nodes { id url } } }';
    const wide = Array.from({ length: 40 }, (_, i) => `p${i}: projects { nodes { ...F } }`).join(' ');
    const res = await run(`query { ${wide} } ${fragment}`);
    expect(res.errors.map((e) => e.message).join()).toMatch(/cost limit/i);
  });

  it('hides field suggestions from anonymous callers only', async () => {
    const typo = 'query { viewr { id } }';
    const asAnonymous = await run(typo, anonymous);
    expect(asAnonymous.errors[0].message).toBe('Cannot query field "viewr" on type "Query".');
    const asUser = await run(typo);
    expect(asUser.errors[0].message).toMatch(/Did you mean "viewer"/);
  });

  it('answers introspection to signed-in callers only', async () => {
    const refused = await run('query { __schema { queryType { name } } }', anonymous);
    expect(refused.errors[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    expect(refused.status).toBe(401);
    expect((await run('query { __type(name: "Project") { name } }', anonymous)).status).toBe(401);
    expect((await run('query { viewer { __typename } }', anonymous)).errors).toEqual([]);
    const allowed = await run('query { __schema { queryType { name } } }');
    expect(allowed.errors).toEqual([]);
  });

  it('answers errors without stack traces', async () => {
    for (const query of ['query {', 'query { viewr }', nested(limits.maxDepth)]) {
      const res = await run(query, anonymous);
      expect(res.errors.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.errors)).not.toMatch(/stacktrace|\n\s+at /);
    }
  });
});
