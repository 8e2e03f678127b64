import {
  buildSchema,
  getNamedType,
  GraphQLError,
  parse,
  subscribe,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  validate,
} from 'graphql';
import { NODE_OWNERS, type NodeType } from '@hub/common';
import { readApiSchemaSdl } from '../api-schema';
import { createReadPlans, ownerLookupsOf, planMessageReads } from './message-reads';

const schema = buildSchema(`
  interface Node { id: ID! }
  type User implements Node { id: ID! username: String! }
  type Issue implements Node { id: ID! title: String! author: User! notes(first: Int): [String!]! }
  type Query { node(id: ID!): Node nodes(ids: [ID!]!): [Node]! }
  type IssueMessage { cursor: String! actor: User issue: Issue! }
  type Subscription { issueUpdated(issueId: Int): IssueMessage! }
`);
const messageType = schema.getType('IssueMessage') as GraphQLObjectType;

/** The resolve info graphql-js hands the subscription's root field for `document`. */
async function infoOf(document: string, variableValues: Record<string, unknown> = {}) {
  let captured: GraphQLResolveInfo | undefined;
  const field = schema.getSubscriptionType()!.getFields().issueUpdated!;
  field.subscribe = (_root, _args, _context, info) => {
    captured = info;
    throw new GraphQLError('captured');
  };
  await subscribe({ schema, document: parse(document), variableValues });
  return captured!;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('planMessageReads', () => {
  it('asks nodes(ids:) for each object field under its response key, through fragments, with only the variables used', async () => {
    const info = await infoOf(
      `subscription ($n: Int, $unused: Boolean) {
        issueUpdated(issueId: 1) { cursor ...M mine: issue { title } }
      }
      fragment M on IssueMessage { issue { ...Who notes(first: $n) } actor { username } }
      fragment Who on Issue { author { username } }`,
      { n: 3 },
    );
    const plan = planMessageReads(info, messageType, { primary: 'issue' });
    expect(plan.selections).toEqual([
      { responseKey: 'issue', field: 'issue', alias: 'hub0' },
      { responseKey: 'actor', field: 'actor', alias: 'hub1' },
      { responseKey: 'mine', field: 'issue', alias: 'hub2' },
    ]);
    expect(plan.variables).toEqual({ n: 3 });
    expect(plan.idFields).toEqual(['issue', 'actor']);
    const query = squash(plan.query);
    expect(query).toContain('query LiveMessages($hubLive_issue: [ID!]!, $hubLive_actor: [ID!]!, $n: Int)');
    expect(query).toContain('hubGate: nodes(ids: $hubLive_issue) { __typename ... on Issue { __typename } }');
    expect(query).toContain(
      'hub0: nodes(ids: $hubLive_issue) { __typename ... on Issue { __typename ...Who notes(first: $n) } }',
    );
    expect(query).toContain('hub1: nodes(ids: $hubLive_actor) { __typename ... on User { __typename username } }');
    expect(query).toContain('fragment Who on Issue { __typename author { __typename username } }');
    expect(query).not.toContain('fragment M');
    // The query is valid against the schema it will run on.
    expect(validate(schema, parse(plan.query))).toEqual([]);
  });

  it('leaves out what @skip or @include leave out, and reads the gate of the primary object', async () => {
    const info = await infoOf(
      `subscription ($withActor: Boolean!) { issueUpdated(issueId: 1) { actor @include(if: $withActor) { username } issue { title } } }`,
      { withActor: false },
    );
    const plan = planMessageReads(info, messageType, { primary: 'issue', selection: 'author { id }' });
    expect(plan.selections.map((s) => s.responseKey)).toEqual(['issue']);
    const query = squash(plan.query);
    expect(query).toContain(
      'hubGate: nodes(ids: $hubLive_issue) { __typename ... on Issue { __typename author { __typename id } } }',
    );
    expect(query).not.toContain('hubLive_actor');
    expect(plan.idFields).toEqual(['issue']);
  });

  it('refuses variables named like its own', async () => {
    const info = await infoOf(
      `subscription ($hubLive_issue: Int) { issueUpdated(issueId: 1) { issue { notes(first: $hubLive_issue) } } }`,
    );
    expect(() => planMessageReads(info, messageType, { primary: 'issue' })).toThrow(/reserved/);
  });

  it("asks each type's owner lookup where the schema has one, and nodes(ids:) for the others", async () => {
    const withLookup = buildSchema(`
      interface Node { id: ID! }
      type User implements Node { id: ID! username: String! }
      type Issue implements Node { id: ID! title: String! author: User! notes(first: Int): [String!]! }
      type Query { nodes(ids: [ID!]!): [Node]! issueNodes(ids: [ID!]!): [Issue]! }
    `);
    const lookups = ownerLookupsOf(withLookup);
    expect([...lookups]).toEqual([['Issue', 'issueNodes']]);
    const info = await infoOf(`subscription { issueUpdated(issueId: 1) { issue { title } actor { username } } }`);
    const query = squash(planMessageReads(info, messageType, { primary: 'issue' }, lookups).query);
    expect(query).toContain('hubGate: issueNodes(ids: $hubLive_issue) { __typename ... on Issue { __typename } }');
    expect(query).toContain('hub0: issueNodes(ids: $hubLive_issue) { __typename ... on Issue { __typename title } }');
    expect(query).toContain('hub1: nodes(ids: $hubLive_actor) { __typename ... on User { __typename username } }');
    expect(
      validate(withLookup, parse(squash(planMessageReads(info, messageType, { primary: 'issue' }, lookups).query))),
    ).toEqual([]);
  });

  it('takes as a lookup only a field named and typed as one', () => {
    const lookalikes = buildSchema(`
      type Issue { id: ID! }
      type Note { id: ID! }
      type User { id: ID! }
      type Query {
        issueNodes(ids: [ID!]): [Issue]!
        noteNodes(ids: [ID!]!): [Note!]!
        userList(ids: [ID!]!): [User]!
      }
    `);
    expect([...ownerLookupsOf(lookalikes)]).toEqual([]);
  });

  it("finds in the internal contract a lookup for every object a subscription message carries that projects' nodes(ids:) does not answer itself, and none in the public one", () => {
    const internal = buildSchema(readApiSchemaSdl('internal'));
    const lookups = ownerLookupsOf(internal);
    const live = buildSchema(readApiSchemaSdl('public'));
    const carried = new Set<string>();
    for (const field of Object.values(live.getSubscriptionType()!.getFields()))
      for (const messageField of Object.values((getNamedType(field.type) as GraphQLObjectType).getFields())) {
        const type = getNamedType(messageField.type);
        if ('getFields' in type) carried.add(type.name);
      }
    expect(carried.size).toBeGreaterThan(4);
    for (const type of carried)
      expect([type, lookups.has(type) || NODE_OWNERS[type as NodeType] === 'projects']).toEqual([type, true]);
    expect([...ownerLookupsOf(buildSchema(readApiSchemaSdl('public')))]).toEqual([]);
  });

  it('plans once per operation and variable values, and shares one plan among those that read alike', async () => {
    const plans = createReadPlans(new Map());
    const gate = { primary: 'issue' };
    const document = `subscription ($issueId: Int, $n: Int) { issueUpdated(issueId: $issueId) { issue { notes(first: $n) } } }`;
    // Each infoOf parses the document anew, so each has an operation object of its own: equal
    // plans are still one object, found by their key.
    let info = await infoOf(document, { issueId: 1, n: 2 });
    const first = plans(info, messageType, gate);
    expect(plans(info, messageType, gate)).toBe(first);
    // Another issue: a variable the reads do not use; the same plan.
    const other = await infoOf(document, { issueId: 2, n: 2 });
    expect(plans(other, messageType, gate)).toBe(first);
    // Another value of a variable they use: a plan of its own.
    info = await infoOf(document, { issueId: 1, n: 3 });
    const third = plans(info, messageType, gate);
    expect(third.id).not.toBe(first.id);
    expect(third.variables).toEqual({ n: 3 });
    expect(first.variables).toEqual({ n: 2 });
  });
});
