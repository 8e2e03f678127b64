import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  print,
  typeFromAST,
  visit,
  type DefinitionNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';
import { REPO_ROOT } from '@hub/local';
import { signPrincipal } from '@hub/common';
import type { WireRequest } from './http';
import { resolver } from './requests';
import { isRef, valueFor, type Value } from './values';
import type { World } from './world';

/** A variable of an operation: its type in the gateway's schema, and the field argument it is given to. */
export interface Variable {
  name: string;
  type: GraphQLInputType;
  /** `field.argument` where the operation uses it (`addProjectMember.userId`). */
  usedAs: string;
}

/** One of the facade's own operations, standalone (with the fragments it spreads). */
export interface Operation {
  name: string;
  mutation: boolean;
  text: string;
  variables: Variable[];
}

/** Where each variable of an operation is given to a field argument. */
function argumentsOf(op: OperationDefinitionNode): Map<string, string> {
  const uses = new Map<string, string>();
  visit(op, {
    Field(field) {
      for (const argument of field.arguments ?? []) {
        if (argument.value.kind === Kind.VARIABLE && !uses.has(argument.value.name.value))
          uses.set(argument.value.name.value, `${field.name.value}.${argument.name.value}`);
      }
    },
  });
  return uses;
}

/** Every operation the facade sends, from its .graphql files: real documents to spoil. */
export function loadOperations(): Operation[] {
  const schema = buildSchema(readFileSync(resolve(REPO_ROOT, 'gateway', 'generated', 'api-schema.graphql'), 'utf8'));
  const dir = resolve(REPO_ROOT, 'rest-facade', 'src', 'operations');
  const definitions: DefinitionNode[] = readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .flatMap((f) => parse(readFileSync(resolve(dir, f), 'utf8')).definitions);
  const fragments = new Map(
    definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const spreads = (node: OperationDefinitionNode | FragmentDefinitionNode, seen: Set<string>) => {
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (seen.has(name)) return;
        seen.add(name);
        spreads(fragments.get(name)!, seen);
      },
    });
    return seen;
  };
  return (
    definitions
      .filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.operation !== 'subscription',
      )
      .map((op) => {
        const uses = argumentsOf(op);
        return {
          name: op.name?.value ?? 'anonymous',
          mutation: op.operation === 'mutation',
          text: [print(op), ...[...spreads(op, new Set())].map((n) => print(fragments.get(n)!))].join('\n'),
          variables: (op.variableDefinitions ?? []).map((v) => ({
            name: v.variable.name.value,
            type: typeFromAST(schema, v.type) as GraphQLInputType,
            usedAs: uses.get(v.variable.name.value) ?? '',
          })),
        };
      })
      // The actor's own project is where the fuzz writes; deleting it would end that.
      .filter((op) => !/^Delete(Project|ForkRelation)$/.test(op.name))
  );
}

/**
 * A value of a variable's type, each scalar chosen by its name as for REST parameters (valueFor,
 * often hostile): input objects get their fields, lists items, enums their values, so that
 * inputs pass the gateway's validation often enough to reach the resolvers.
 */
export function typedValue(type: GraphQLInputType, name: string): fc.Arbitrary<Value> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return fc.array(typedValue(inner.ofType, name), { maxLength: 3 });
  if (isEnumType(inner))
    return fc.oneof(
      { arbitrary: fc.constantFrom<Value>(...inner.getValues().map((v) => v.name)), weight: 4 },
      { arbitrary: valueFor(name), weight: 1 },
    );
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields());
    return fc
      .tuple(
        ...fields.map((field) =>
          isNonNullType(field.type)
            ? typedValue(field.type, field.name).map((v): [string, Value] => [field.name, v])
            : fc.option(
                typedValue(field.type, field.name).map((v): [string, Value] => [field.name, v]),
                { nil: null },
              ),
        ),
      )
      .map((pairs) => Object.fromEntries(pairs.filter((p): p is [string, Value] => p !== null)));
  }
  return valueFor(name);
}

export type GqlCaller = 'actor' | 'root' | 'anonymous' | 'badToken' | 'forgedRoot';
export type GqlShape =
  | 'operation'
  | 'truncated'
  | 'spliced'
  | 'aliases'
  | 'deep'
  | 'huge'
  | 'garbage'
  | 'batch'
  | 'get'
  | 'introspection'
  | 'invalidJson'
  | 'wrongType'
  | 'badEnvelope';

export interface GqlInput {
  shape: GqlShape;
  operation: number;
  caller: GqlCaller;
  variables: Array<[string, Value]>;
  /** Where to cut or splice, how many aliases or levels. */
  n: number;
  junk: string;
  /** Sent to the authorised scope's records (see requests.ts' Scope), root's mutations included. */
  authorised?: boolean;
}

const GARBAGE = [
  '',
  '{',
  '}',
  'query',
  'query {',
  '{ viewer { ',
  'mutation { }',
  '{ __schema { types { name } } }',
  'fragment A on Query { ...A } { ...A }',
  '{ viewer @skip(if: true) @skip(if: true) { id: databaseId } }',
  '"\\u0000"',
  '{ viewer(id: "x") { id: databaseId } }',
  '{ nope }',
  'subscription { x }',
  '{ user(id: 2147483648) { id: databaseId } }',
  '{ project(id: -1) { id: databaseId } }',
  'query ($a: Int!) { user(id: $a) { id: databaseId } }',
];
const ENVELOPES = [
  '{"query": 1}',
  '{"query": null}',
  '{"query": ["{ viewer { id } }"]}',
  '{"query": "{ viewer { id } }", "variables": "x"}',
  '{"query": "{ viewer { id } }", "variables": [1]}',
  '{"query": "{ viewer { id } }", "operationName": 7}',
  '{"query": "{ viewer { id } }", "operationName": "Nope"}',
  '{"query": "{ viewer { id } }", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "00"}}}',
  '[]',
  '[1]',
  'null',
  '"{ viewer { id } }"',
  '{}',
];

export function gqlInput(operations: Operation[]): fc.Arbitrary<GqlInput> {
  return fc.integer({ min: 0, max: operations.length - 1 }).chain((operation) =>
    fc.record({
      shape: fc.oneof(
        { arbitrary: fc.constant<GqlShape>('operation'), weight: 10 },
        {
          arbitrary: fc.constantFrom<GqlShape>(
            'truncated',
            'spliced',
            'garbage',
            'badEnvelope',
            'invalidJson',
            'wrongType',
            'get',
            'batch',
          ),
          weight: 6,
        },
        { arbitrary: fc.constantFrom<GqlShape>('aliases', 'deep', 'huge', 'introspection'), weight: 2 },
      ),
      operation: fc.constant(operation),
      caller: fc.constantFrom<GqlCaller>('actor', 'actor', 'root', 'anonymous', 'badToken', 'forgedRoot'),
      variables: fc
        .tuple(
          ...operations[operation].variables.map(({ name, type }) =>
            fc.oneof(
              { arbitrary: typedValue(type, name).map((v): [string, Value] | null => [name, v]), weight: 5 },
              { arbitrary: fc.constant(null), weight: 1 },
            ),
          ),
          fc.option(
            valueFor('extra').map((v): [string, Value] => ['extra', v]),
            { freq: 5 },
          ),
        )
        .map((pairs) => pairs.filter((p): p is [string, Value] => p !== null)),
      n: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.constantFrom(1000, 5000, 20000)),
      junk: fc.oneof(
        fc.constantFrom(...GARBAGE, ...ENVELOPES),
        fc.string({ maxLength: 30 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
      ),
    }),
  );
}

export interface GqlMeta {
  privileged: boolean;
  mutation: boolean;
  namesVictim: boolean;
  key: string;
}

/** The request to the gateway's /graphql, and what the oracles need to know. */
export function gqlWire(input: GqlInput, operations: Operation[], world: World): { wire: WireRequest; meta: GqlMeta } {
  const op = operations[input.operation];
  // Root only reads, but in the authorised scope: its mutations would change the world the oracles compare against.
  const caller: GqlCaller = input.caller === 'root' && op.mutation && !input.authorised ? 'actor' : input.caller;
  const resolve = resolver(world, input.authorised ? 'authorised' : 'generated', false);
  const variables = Object.fromEntries(input.variables.map(([k, v]) => [k, resolve(v)]));
  let query = op.text;
  let envelope: string | null = null;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  switch (input.shape) {
    case 'truncated':
      query = op.text.slice(0, input.n % (op.text.length + 1));
      break;
    case 'spliced': {
      const at = input.n % (op.text.length + 1);
      query = op.text.slice(0, at) + input.junk + op.text.slice(at);
      break;
    }
    case 'garbage':
      query = input.junk;
      break;
    case 'aliases':
      query = `{ ${Array.from({ length: Math.max(1, input.n) }, (_, i) => `a${i}: viewer { id username }`).join(' ')} }`;
      break;
    case 'deep':
      // Selection sets nested n deep: the parser and validation must refuse it without a crash.
      query = `{ viewer ${'{ namespace '.repeat(input.n)}{ id }${' }'.repeat(input.n)} }`;
      break;
    case 'huge':
      query = `# ${'x'.repeat(1024 * 1024)}\n{ viewer { id } }`;
      break;
    case 'introspection':
      query = '{ __schema { queryType { name } types { name fields { name args { name } } } } }';
      break;
    case 'badEnvelope':
      envelope =
        input.junk.startsWith('{') || input.junk.startsWith('[') || input.junk === 'null' || input.junk.startsWith('"')
          ? input.junk
          : JSON.stringify({ query: input.junk });
      break;
    case 'invalidJson':
      envelope = `{"query": ${JSON.stringify(query)}, ${input.junk}`;
      break;
    case 'wrongType':
      headers['content-type'] = [
        'text/plain',
        'application/graphql',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
      ][input.n % 4];
      break;
    case 'batch':
      envelope = JSON.stringify([{ query, variables }, { query: input.junk }]);
      break;
    default:
  }
  if (caller === 'actor') headers['private-token'] = world.actor.token;
  if (caller === 'root') headers['private-token'] = world.rootToken;
  if (caller === 'badToken') headers['private-token'] = 'z'.repeat(20);
  if (caller === 'forgedRoot')
    headers['x-hub-principal'] = signPrincipal(
      { userId: 1, username: 'root', isAdmin: true, impersonatorId: null },
      world.secrets.principalSecret,
    );
  const url = new URL(world.graphqlUrl);
  let wire: WireRequest;
  if (input.shape === 'get') {
    const q = new URLSearchParams({ query, variables: JSON.stringify(variables) });
    wire = { method: 'GET', path: `${url.pathname}?${q}`, headers: { ...headers, 'apollo-require-preflight': 'true' } };
  } else {
    wire = { method: 'POST', path: url.pathname, headers, body: envelope ?? JSON.stringify({ query, variables }) };
  }
  const refs = input.authorised ? [] : input.variables.flatMap(([, v]) => (isRef(v) ? [v.ref] : []));
  return {
    wire,
    meta: {
      privileged: caller === 'root',
      mutation: op.mutation && ['operation', 'batch', 'wrongType', 'get'].includes(input.shape),
      namesVictim: refs.some((r) => r.startsWith('victim.') || r.startsWith('owner.') || r.startsWith('group.')),
      key: `${input.shape} ${op.name}`,
    },
  };
}

/** Gateway answers are JSON; errors have string messages. */
export function gqlShape(status: number, json: unknown, contentType: string): string | null {
  if (!contentType.includes('json')) return `${status} answered ${contentType || 'no content type'}`;
  const answers = Array.isArray(json) ? json : [json];
  for (const answer of answers) {
    if (!answer || typeof answer !== 'object') return `${status} body is not a JSON object`;
    const { errors, data } = answer as { errors?: unknown; data?: unknown };
    if (status >= 400 && !Array.isArray(errors)) return `${status} without errors`;
    if (errors !== undefined && (!Array.isArray(errors) || errors.some((e) => typeof e?.message !== 'string')))
      return 'an error without a message';
    if (errors === undefined && data === undefined) return 'neither data nor errors';
  }
  return null;
}

/**
 * No error is an unexpected failure. The gateway answers one with HTTP 200 like any other error
 * (GraphQL's way), so the status alone never shows it: its code does.
 */
export function gqlInternalError(json: unknown): string | null {
  const answers = Array.isArray(json) ? json : [json];
  for (const answer of answers) {
    const errors = (answer as { errors?: unknown } | null)?.errors;
    if (!Array.isArray(errors)) continue;
    const internal = errors.find((e) => e?.extensions?.code === 'INTERNAL_SERVER_ERROR');
    if (internal) return `an internal error at ${(internal.path ?? []).join('.') || 'the top'}: ${internal.message}`;
  }
  return null;
}
