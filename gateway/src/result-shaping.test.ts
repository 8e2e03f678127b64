import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Supergraph, operationFromDocument } from '@apollo/federation-internals';
// The module patches/@apollo__gateway@2.14.4.patch changes: the gateway runs it on every answer.
import { computeResponse } from '@apollo/gateway/dist/resultShaping';
import { parse, type DocumentNode } from 'graphql';
import { facadeOperations } from './facade-operations.test-support';

const supergraph = Supergraph.build(
  readFileSync(resolve(__dirname, '..', 'generated', 'supergraph-internal.graphql'), 'utf8'),
);

function shape(document: DocumentNode, input: Record<string, unknown>, variables: Record<string, unknown> = {}) {
  const operation = operationFromDocument(supergraph.apiSchema(), document, {});
  return computeResponse({ operation, variables, input, introspectionHandling: () => null });
}

const user = {
  id: 7,
  name: 'Ann',
  username: 'ann',
  state: 'active',
  avatar_url: null,
  web_url: 'http://h/ann',
  created_at: '2026-01-01T00:00:00.000Z',
};
const project = (id: number) => ({
  id,
  description: null,
  default_branch: 'master',
  tag_list: ['a'],
  public: false,
  archived: false,
  visibility_level: 0,
  ssh_url_to_repo: `git@h:ann/p${id}.git`,
  http_url_to_repo: `http://h/ann/p${id}.git`,
  web_url: `http://h/ann/p${id}`,
  owner: user,
  name: `p${id}`,
  name_with_namespace: `ann / p${id}`,
  path: `p${id}`,
  path_with_namespace: `ann/p${id}`,
  issues_enabled: true,
  merge_requests_enabled: true,
  wiki_enabled: true,
  snippets_enabled: false,
  created_at: '2026-01-02T00:00:00.000Z',
  last_activity_at: '2026-01-03T00:00:00.000Z',
  creator_id: 7,
  namespace: {
    id: 3,
    name: 'ann',
    path: 'ann',
    description: '',
    owner_id: 7,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
  forked_from_project:
    id === 2 ? { id: 1, name: 'p1', name_with_namespace: 'ann / p1', path: 'p1', path_with_namespace: 'ann/p1' } : null,
  avatar_url: null,
  star_count: 0,
  forks_count: id === 1 ? 1 : 0,
});

describe('result shaping (patched @apollo/gateway)', () => {
  it('gives back a list page as the subgraph sent it, field for field and in order', () => {
    const listProjects = facadeOperations().find((operation) => operation.name === 'ListProjects')!.document;
    const input = { projects: { total: 3, nodes: [project(1), project(2), project(3)] } };
    const { data, errors } = shape(listProjects, input, {
      scope: 'VISIBLE',
      orderBy: 'CREATED_AT',
      sort: 'DESC',
      page: 1,
      perPage: 100,
    });
    expect(errors).toEqual([]);
    expect(JSON.stringify(data)).toBe(JSON.stringify(input));
  });

  it('inherits nothing, and keeps an alias named __proto__ as an ordinary key', () => {
    // As answers arrive: JSON.parse makes __proto__ an own key (an object literal would not).
    const { data } = shape(
      parse('{ viewer { __proto__: username id } }'),
      JSON.parse('{"viewer":{"__proto__":"ann","id":7}}'),
    );
    const viewer = (data as { viewer: Record<string, unknown> }).viewer;
    expect(Object.keys(viewer)).toEqual(['__proto__', 'id']);
    expect(Object.getOwnPropertyDescriptor(viewer, '__proto__')?.value).toBe('ann');
    for (let proto = Object.getPrototypeOf(viewer); proto !== null; proto = Object.getPrototypeOf(proto))
      expect(Reflect.ownKeys(proto)).toEqual([]);
    expect('toString' in viewer).toBe(false);
    expect(JSON.stringify(data)).toBe('{"viewer":{"__proto__":"ann","id":7}}');
  });

  it('still honours @skip and @include, by literal and by variable', () => {
    const document = parse(
      'query ($yes: Boolean!) { viewer { id name @skip(if: $yes) username @include(if: $yes) state @include(if: false) } }',
    );
    const input = { viewer: { id: 7, name: 'Ann', username: 'ann', state: 'active' } };
    expect(shape(document, input, { yes: true }).data).toEqual({ viewer: { id: 7, username: 'ann' } });
    expect(shape(document, input, { yes: false }).data).toEqual({ viewer: { id: 7, name: 'Ann' } });
  });

  it('still nulls what breaks the schema, with the error', () => {
    const wrongLeaf = shape(parse('{ viewer { databaseId name } }'), { viewer: { databaseId: 'seven', name: 'Ann' } });
    expect(wrongLeaf.data).toEqual({ viewer: null });
    expect(wrongLeaf.errors.map((error) => error.message)).toEqual(['Invalid value found for field User.databaseId.']);
    const missingNonNull = shape(parse('{ viewer { id name } }'), { viewer: { id: 7, name: null } });
    expect(missingNonNull.data).toEqual({ viewer: null });
    expect(missingNonNull.errors.map((error) => error.message)).toEqual([
      'Cannot return null for non-nullable field User.name.',
    ]);
    expect(() => shape(parse('{ viewer { id } }'), { viewer: 'ann' })).toThrow(/non-object value ann/);
  });
});
