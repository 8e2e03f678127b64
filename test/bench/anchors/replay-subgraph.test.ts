import { buildSchema, graphql, parse } from 'graphql';
import type { Principal } from '@hub/common';
import { byResponseKey, createRecorder, rootQueryFields } from './replay-subgraph';

const principal: Principal = { userId: 7, username: 'ann', isAdmin: false, impersonatorId: null };

describe('replay subgraph', () => {
  it('answers every root query field a subgraph declares, extensions and _entities included', () => {
    const sdl = parse(
      'type Query { project(id: ID!): P } extend type Query { projects: [P!]! } type P { id: ID! } type Mutation { x: Int }',
    );
    expect(rootQueryFields(sdl)).toEqual(['project', 'projects', '_entities']);
  });

  it("reads every other field of a recorded object by its response key (the caller's alias)", () => {
    const resolvers = byResponseKey(
      parse('type Query { p: P } type P { defaultBranch: String } extend type P { id: ID! }'),
    );
    expect(Object.keys(resolvers)).toEqual(['P']);
    expect(Object.keys(resolvers.P)).toEqual(['defaultBranch', 'id']);
    expect(
      resolvers.P.defaultBranch({ default_branch: 'master', defaultBranch: 'no' }, {}, {}, {
        path: { key: 'default_branch' },
      } as never),
    ).toBe('master');
  });

  it('asks the real subgraph once per operation and variables, then answers from memory', async () => {
    const schema = buildSchema('type Query { project(id: ID!): P, other: Int } type P { id: ID!, name: String }');
    const asked: Array<{ query: string; variables: unknown }> = [];
    const answer = createRecorder(async (query, variables, who) => {
      expect(who).toEqual(principal);
      asked.push({ query, variables });
      const id = (variables as { id: string }).id;
      return { project: { id, name: `p${id}` }, renamed: 3 };
    });
    const run = (source: string, variableValues: Record<string, unknown>) =>
      graphql({
        schema,
        source,
        variableValues,
        contextValue: { principal },
        fieldResolver: (parent, _a, context, info) =>
          parent === undefined
            ? answer(parent, _a, context, info)
            : (parent as Record<string, unknown>)[info.fieldName],
      });
    const query = 'query Q($id: ID!) { project(id: $id) { id name } renamed: other }';
    const first = await run(query, { id: '1' });
    expect(first).toEqual({ data: { project: { id: '1', name: 'p1' }, renamed: 3 } });
    expect(asked).toHaveLength(1);
    expect(asked[0].query).toContain('project(id: $id)');
    expect(asked[0].variables).toEqual({ id: '1' });
  });

  it('gives each recorded entity the type its representation named', async () => {
    const answer = createRecorder(async () => ({ _entities: [{ id: 1 }, null, { id: 3, __typename: 'B' }] }));
    const operation = parse(
      'query Q($representations: [_Any!]!) { _entities(representations: $representations) { ... on A { id } } }',
    ).definitions[0];
    const representations = [
      { __typename: 'A', id: 1 },
      { __typename: 'A', id: 2 },
      { __typename: 'C', id: 3 },
    ];
    const info = { operation, variableValues: { representations }, fragments: {}, path: { key: '_entities' } } as never;
    expect(await answer(undefined, {}, { principal }, info)).toEqual([
      { id: 1, __typename: 'A' },
      null,
      { id: 3, __typename: 'B' },
    ]);
  });

  it('keys on the parsed operation and the variables, and asks again after a failure', async () => {
    let calls = 0;
    let fail = true;
    const answer = createRecorder(async () => {
      calls++;
      if (fail) throw new Error('down');
      return { n: calls };
    });
    const document = parse('query Q($v: Int) { n }');
    const operation = document.definitions[0];
    const info = (variableValues: Record<string, unknown>) =>
      ({ operation, variableValues, fragments: {}, path: { key: 'n' } }) as never;
    await expect(answer(undefined, {}, { principal }, info({ v: 1 }))).rejects.toThrow('down');
    fail = false;
    expect(await answer(undefined, {}, { principal }, info({ v: 1 }))).toBe(2);
    expect(await answer(undefined, {}, { principal }, info({ v: 1 }))).toBe(2);
    expect(await answer(undefined, {}, { principal }, info({ v: 2 }))).toBe(3);
    expect(calls).toBe(3);
  });
});
