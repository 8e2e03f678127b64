import express from 'express';
import { compileQuery } from 'graphql-jit';
import { buildSchema, parse } from 'graphql';
import { notFound } from './errors';
import { createLogger } from './logger';
import type { Principal } from './principal';
import { DateTimeScalar } from './scalars';
import { mountSubgraph } from './subgraph';

// Subgraphs execute on graphql-jit (compiled-executor.ts); these pin what callers rely on from
// graphql-js's execution: values, variables, entities, errors with their codes, introspection.

const typeDefs = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  scalar DateTime
  type Query { projects(first: Int!): [Project!]! project(id: Int!): Project, broken: Int, named(text: String!): [Project!]! }
  type Project @key(fields: "id") { id: Int! name: String! tags: [String!]! owner: User createdAt: DateTime! }
  type User { id: Int! username: String! }
`);

const PROJECTS = [1, 2, 3].map((id) => ({
  id,
  name: `p${id}`,
  tags: id === 2 ? ['a', 'b'] : [],
  owner: id === 3 ? null : { id: 9, username: 'ann' },
  createdAt: new Date(Date.UTC(2026, 0, id)),
}));

const compile = jest.fn(compileQuery) as unknown as jest.MockedFunction<typeof compileQuery>;

const resolvers = {
  DateTime: DateTimeScalar,
  Query: {
    projects: (_: unknown, { first }: { first: number }) => PROJECTS.slice(0, first),
    project: (_: unknown, { id }: { id: number }) =>
      PROJECTS.find((project) => project.id === id) ?? Promise.reject(notFound('Project')),
    named: (_: unknown, { text }: { text: string }) => PROJECTS.filter((project) => project.name.includes(text)),
    broken: () => {
      throw new Error('a bug, with a secret in its message');
    },
  },
  Project: {
    __resolveReference: async ({ id }: { id: number }) => PROJECTS.find((project) => project.id === id) ?? null,
  },
};

async function subgraph(compileWith: typeof compileQuery = compile) {
  return mountSubgraph<{ principal: Principal }>({
    compile: compileWith,
    app: express(),
    typeDefs,
    resolvers,
    principalSecret: 'secret',
    logger: createLogger('compiled-executor-test', 'silent'),
    createContext: (principal) => ({ principal }),
  });
}

async function run(server: Awaited<ReturnType<typeof subgraph>>, query: string, variables?: Record<string, unknown>) {
  const response = await server.executeOperation(
    { query, variables },
    { contextValue: { principal: undefined as unknown as Principal } },
  );
  if (response.body.kind !== 'single') throw new Error('single result expected');
  return response.body.singleResult;
}

describe('subgraph execution on graphql-jit', () => {
  it('compiles each document once and answers as graphql-js did', async () => {
    compile.mockClear();
    const server = await subgraph();
    const query = 'query ($n: Int!) { projects(first: $n) { id name tags owner { username } createdAt } }';
    const first = await run(server, query, { n: 3 });
    const second = await run(server, query, { n: 1 });
    expect(first).toEqual({
      data: {
        projects: [
          { id: 1, name: 'p1', tags: [], owner: { username: 'ann' }, createdAt: '2026-01-01T00:00:00.000Z' },
          { id: 2, name: 'p2', tags: ['a', 'b'], owner: { username: 'ann' }, createdAt: '2026-01-02T00:00:00.000Z' },
          { id: 3, name: 'p3', tags: [], owner: null, createdAt: '2026-01-03T00:00:00.000Z' },
        ],
      },
    });
    expect(second.data).toEqual({ projects: [(first.data as { projects: unknown[] }).projects[0]] });
    expect(compile).toHaveBeenCalledTimes(1);
    await server.stop();
  });

  it('resolves entities for the gateway', async () => {
    const server = await subgraph();
    const result = await run(
      server,
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Project { id name } } }',
      {
        r: [
          { __typename: 'Project', id: 2 },
          { __typename: 'Project', id: 5 },
        ],
      },
    );
    expect(result).toEqual({ data: { _entities: [{ id: 2, name: 'p2' }, null] } });
    await server.stop();
  });

  it('keeps a domain error with its code and path, and masks an unexpected one', async () => {
    const server = await subgraph();
    const result = await run(server, '{ project(id: 4) { id } broken }');
    expect(result.data).toEqual({ project: null, broken: null });
    // In the order they happened: the synchronous throw before the rejected promise.
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: '500 Internal Server Error',
        path: ['broken'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      }),
      expect.objectContaining({
        message: '404 Project Not Found',
        path: ['project'],
        extensions: { code: 'NOT_FOUND' },
      }),
    ]);
    await server.stop();
  });

  it('answers introspection and the federation service query', async () => {
    const server = await subgraph();
    const result = await run(
      server,
      '{ __schema { queryType { name } } __type(name: "Project") { fields { name } } _service { sdl } }',
    );
    expect(result.errors).toBeUndefined();
    const data = result.data as {
      __schema: unknown;
      __type: { fields: Array<{ name: string }> };
      _service: { sdl: string };
    };
    expect(data.__schema).toEqual({ queryType: { name: 'Query' } });
    expect(data.__type.fields.map((field) => field.name)).toEqual(['id', 'name', 'tags', 'owner', 'createdAt']);
    expect(data._service.sdl).toContain('type Project');
    await server.stop();
  });

  it('refuses a variable of the wrong type before executing', async () => {
    const server = await subgraph();
    const result = await run(server, 'query ($n: Int!) { projects(first: $n) { id } }', { n: 'three' });
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.message).toMatch(/Variable "\$n" got invalid value "three"/);
    await server.stop();
  });

  it("runs a string literal made to look like graphql-jit's date marker as a string, never as code", async () => {
    const g = globalThis as { markerRan?: boolean };
    const literal = '"__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d(globalThis.markerRan=true,0)"';
    // graphql-jit by itself compiles the literal into code (if this starts failing, graphql-jit
    // has fixed it and hasMarkerLiteral can go).
    const bare = buildSchema('type Query { named(text: String!): Int }');
    const compiledBare = compileQuery(bare, parse(`{ named(text: ${literal}) }`));
    if ('query' in compiledBare) await compiledBare.query(undefined, {}, {});
    expect(g.markerRan).toBe(true);
    delete g.markerRan;

    const server = await subgraph();
    compile.mockClear();
    const result = await run(server, `{ named(text: ${literal}) { id } }`);
    expect(g.markerRan).toBeUndefined();
    expect(result).toEqual({ data: { named: [] } });
    expect(compile).not.toHaveBeenCalled();
    await server.stop();
  });

  it('runs a document graphql-jit cannot compile on graphql-js, and tries to compile it once', async () => {
    const failing = jest.fn(() => {
      throw new Error('graphql-jit cannot compile this');
    }) as unknown as jest.MockedFunction<typeof compileQuery>;
    const server = await subgraph(failing);
    for (let i = 0; i < 2; i++)
      expect(await run(server, '{ project(id: 2) { name } }')).toEqual({ data: { project: { name: 'p2' } } });
    expect(failing).toHaveBeenCalledTimes(1);
    await server.stop();
  });
});
