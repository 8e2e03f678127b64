import {
  buildSchema,
  GraphQLError,
  parse,
  subscribe,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  validate,
} from 'graphql';
import { planMessageReads } from './message-reads';

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
});
