import { parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { listShapeOf } from './project-lists';

/** The `projects` field of a query, as a resolver's info holds it. */
const fieldNodesOf = (query: string) => {
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  return { fieldNodes: [operation.selectionSet.selections[0] as FieldNode] };
};

describe('listShapeOf', () => {
  it('reads ids and revisions only when nothing else of a project is asked for', () => {
    expect(listShapeOf(fieldNodesOf('{ projects { total nodes { databaseId revision } } }'))).toBe('revisions');
    expect(listShapeOf(fieldNodesOf('{ projects { __typename nodes { __typename id revision } } }'))).toBe('revisions');
  });

  it('reads the rows for any other field, a fragment, a directive or another list shape', () => {
    for (const query of [
      '{ projects { nodes { databaseId revision name } } }',
      '{ projects { nodes { ... on Project { databaseId } } } }',
      '{ projects { nodes { ...F } } } fragment F on Project { databaseId }',
      '{ projects { nodes { databaseId @include(if: true) revision } } }',
      '{ projects { edges { node { databaseId } } } }',
      '{ projects { ... on ProjectConnection { total } } }',
      '{ projects { nodes @skip(if: false) { databaseId } } }',
    ])
      expect({ query, shape: listShapeOf(fieldNodesOf(query)) }).toEqual({ query, shape: 'shown' });
  });
});
