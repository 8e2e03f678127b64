import { buildSchema, parse } from 'graphql';
import { graphqlShapes } from './graphql-shapes';

const schema = buildSchema(`
  scalar DateTime
  scalar JSON
  enum State { OPEN CLOSED }
  type Person { login: String! }
  type Thing {
    id: Int!
    "What it is called."
    name: String
    at: DateTime!
    data: JSON
    tags: [String!]!
    owner: Person
    state: State
  }
  type Query { thing(id: Int): Thing }
  type Mutation { touch: Thing! }
`);

const document = parse(`
  fragment Login on Person { login }
  query Thing { thing(id: 1) { id label: name at data tags owner { ...Login } state } }
`);

describe('graphqlShapes', () => {
  const shapes = graphqlShapes(schema);

  it("describes a selection by the schema's types: required and non-null, nullable, lists, aliases, fragments, scalars", () => {
    expect(shapes.select(document, 'thing')).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer' },
        label: { type: ['string', 'null'], description: 'What it is called.' },
        at: { type: 'string', format: 'date-time' },
        data: {},
        tags: { type: 'array', items: { type: 'string' } },
        owner: {
          type: ['object', 'null'],
          properties: { login: { type: 'string' } },
          required: ['login'],
          additionalProperties: false,
        },
        state: { type: ['string', 'null'], enum: ['OPEN', 'CLOSED', null] },
      },
      required: ['id', 'label', 'at', 'data', 'tags', 'owner', 'state'],
      additionalProperties: false,
    });
  });

  it('describes the value at a path as found (not null: the route answers 404 for that)', () => {
    expect(shapes.select(document, 'thing.owner')).toMatchObject({ type: 'object' });
    expect(shapes.select(document, 'thing.label')).toEqual({ type: 'string' });
  });

  it('reads mutations against the mutation type', () => {
    expect(shapes.select(parse('mutation { touch { id } }'), 'touch')).toMatchObject({ required: ['id'] });
  });

  it('refuses a path the document does not select', () => {
    expect(() => shapes.select(document, 'thing.name')).toThrow('Thing selects no thing.name');
  });
});
