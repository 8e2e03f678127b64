import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
} from 'graphql';
import { isDomainCode } from '@hub/common';
import { authorisedCaller, authorisedTarget } from './authorised';
import type { GqlCaller, GqlInput, Operation, Variable } from './graphql';
import { Hang, type WireResponse } from './http';
import { plausible, type RestInput } from './requests';
import { routeKey, type FuzzRoute } from './routes';
import { snakeCase, type Value } from './values';

/**
 * Ids at and past every edge, and text that is almost one: none is a plain positive id, and
 * several are no integer at all. Each goes into every id parameter of every route and operation,
 * from a caller allowed to do what is asked, everything else well-formed, so that the value
 * itself is what reaches the services.
 */
export const BOUNDARY_IDS: Value[] = [0, -1, 2 ** 31, 2 ** 63, '1e3', '1 ', 'abc', '1abc'];

const MAX_INT32 = 2 ** 31 - 1;
/** An id that could be one but that no record has: what a boundary id's answer is compared with. */
export const NO_RECORD = MAX_INT32;

/** Read as an integer a service takes (v3's integer parameters trim, as Rails' to_i did; GraphQL's Int does not). */
const readAsInt = (value: Value, trims: boolean): number | null => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' && trims ? value.trim() : value;
  return typeof text === 'string' && /^-?\d+$/.test(text) && Math.abs(Number(text)) <= MAX_INT32 ? Number(text) : null;
};

const show = (value: Value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/**
 * What a boundary id's answer must be, beyond what every answer must be (no 5xx, no hang, the v3
 * or GraphQL error form): `asNone`, a refusal, or the answer the same request naming NO_RECORD
 * gets (GitLab answered some records that do not exist with 200: the idempotent DELETEs, an
 * issue's assignee_id stored as sent); `refused`, a refusal, for a parameter's value that is no
 * integer; nothing more for one that reads as a positive id ("1 " is 1, as in Rails).
 */
export type Expectation = 'asNone' | 'refused' | 'answered';

const expectationOf = (value: Value, inPath: boolean, trims: boolean): Expectation => {
  if (inPath) return 'asNone';
  const n = readAsInt(value, trims);
  return n === null ? 'refused' : n <= 0 ? 'asNone' : 'answered';
};

/** One id parameter of one route or operation: the request naming NO_RECORD there, and one per boundary id. */
export interface BoundaryGroup<Input> {
  name: string;
  missing: Input;
  cases: Array<{ label: string; input: Input; expect: Expectation }>;
}

const REST_ID = /^(id|uid|iid)$|_id$/;

/** Every id parameter of every route (path, query and body) with every boundary value. */
export function restBoundaryTable(routes: FuzzRoute[]): Array<BoundaryGroup<RestInput>> {
  const groups: Array<BoundaryGroup<RestInput>> = [];
  for (const route of routes) {
    const inPath = route.pathParams.filter((name) => REST_ID.test(name));
    const inParams = route.params.filter((name) => REST_ID.test(name));
    for (const spoilt of [...inPath, ...inParams]) {
      const input = (value: Value): RestInput => {
        const valueOf = (name: string) => (name === spoilt ? value : authorisedTarget(route, name));
        return {
          route,
          caller: authorisedCaller(route),
          path: route.pathParams.map((name) => ({ value: valueOf(name), raw: true })),
          params: route.params.map((name): [string, Value] => [name, valueOf(name)]),
          placement: route.method === 'get' ? 'query' : 'json',
          tricks: [],
          junk: '',
          rawQuery: null,
          authorised: true,
        };
      };
      groups.push({
        name: `${routeKey(route)} ${spoilt}`,
        missing: input(NO_RECORD),
        cases: BOUNDARY_IDS.map((value) => ({
          label: `${routeKey(route)} ${spoilt}=${show(value)}`,
          input: input(value),
          expect: expectationOf(value, inPath.includes(spoilt), true),
        })),
      });
    }
  }
  return groups;
}

const GRAPHQL_ID = /^(id|iid)$|Id$/;

/** The v3 path a GraphQL field's `id` argument stands for, so that `plausible` names the right kind of record. */
function pathOf(usedAs: string): string {
  const field = usedAs.split('.')[0];
  if (/user/i.test(field)) return '/users/:id';
  if (/group/i.test(field)) return '/groups/:id';
  if (/systemHook/i.test(field)) return '/hooks/:id';
  return '/projects/:id';
}

/**
 * A well-formed value of a variable, for the authorised scope: ids as `plausible` names them,
 * enums their first value, input objects their required fields. Undefined for a nullable one
 * nothing plausible is known for (a project's fullPath beside its id).
 */
function plausibleVariable(variable: Variable, type: GraphQLInputType = variable.type): Value | undefined {
  const required = isNonNullType(type);
  const inner = required ? type.ofType : type;
  if (isListType(inner)) return required ? [] : undefined;
  if (isEnumType(inner)) return inner.getValues()[0].name;
  if (isInputObjectType(inner)) return required ? requiredFields(inner) : undefined;
  if (inner.name === 'Boolean') return true;
  const name = snakeCase(variable.name);
  const route = { method: 'post', path: pathOf(variable.usedAs), pathParams: [], params: [], auth: true } as FuzzRoute;
  // The noteable of a note: the issue (the first NoteableKind).
  const value = name === 'noteable_id' ? { ref: 'victim.issue' } : plausible(name, route, 'id');
  if (value === 'sweep' && !required) return undefined;
  return value;
}

function requiredFields(type: GraphQLInputObjectType): Record<string, Value> {
  const fields: Record<string, Value> = {};
  for (const field of Object.values(type.getFields())) {
    if (!isNonNullType(field.type)) continue;
    const value = plausibleVariable({ name: field.name, type: field.type, usedAs: '' });
    if (value !== undefined) fields[field.name] = value;
  }
  return fields;
}

/** The Int fields of an input object with id names (`assigneeId` of CreateIssueInput). */
const idFieldsOf = (type: GraphQLInputType): string[] => {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (!isInputObjectType(inner)) return [];
  return Object.values(inner.getFields())
    .filter((f) => GRAPHQL_ID.test(f.name) && (isNonNullType(f.type) ? f.type.ofType : f.type).toString() === 'Int')
    .map((f) => f.name);
};

/**
 * Every id variable of every operation the facade sends, and every id field of their input
 * objects, with every boundary value. A value GraphQL's Int does not carry is refused by the
 * gateway before any resolver runs (400), whoever asks; one it carries is sent by the actor and by
 * root too (an admin takes other paths through the same resolvers).
 */
export function graphqlBoundaryTable(operations: Operation[]): Array<BoundaryGroup<GqlInput>> {
  const groups: Array<BoundaryGroup<GqlInput>> = [];
  operations.forEach((op, operation) => {
    const plain = new Map(op.variables.map((v) => [v.name, plausibleVariable(v)]));
    const spoilt: Array<{ variable: string; field: string | null }> = [
      ...op.variables
        .filter((v) => GRAPHQL_ID.test(v.name) && (isNonNullType(v.type) ? v.type.ofType : v.type).toString() === 'Int')
        .map((v) => ({ variable: v.name, field: null })),
      ...op.variables.flatMap((v) => idFieldsOf(v.type).map((field) => ({ variable: v.name, field }))),
    ];
    for (const { variable, field } of spoilt) {
      const name = `${op.name} ${field === null ? variable : `${variable}.${field}`}`;
      const input = (value: Value, caller: GqlCaller): GqlInput => {
        const variables = new Map(plain);
        variables.set(
          variable,
          field === null ? value : { ...(plain.get(variable) as Record<string, Value> | undefined), [field]: value },
        );
        return {
          shape: 'operation',
          operation,
          caller,
          variables: [...variables].filter((pair): pair is [string, Value] => pair[1] !== undefined),
          n: 0,
          junk: '',
          authorised: true,
        };
      };
      for (const caller of ['actor', 'root'] as const) {
        const values = caller === 'actor' ? BOUNDARY_IDS : BOUNDARY_IDS.filter((v) => readAsInt(v, false) !== null);
        groups.push({
          name: `${caller} ${name}`,
          missing: input(NO_RECORD, caller),
          cases: values.map((value) => ({
            label: `${caller} ${name}=${show(value)}`,
            input: input(value, caller),
            expect: expectationOf(value, false, false),
          })),
        });
      }
    }
  });
  return groups;
}

/** How a protocol refuses a request, and what two answers are compared on. */
export interface Protocol {
  refusal(res: WireResponse): boolean;
  summary(res: WireResponse): string;
}

const clientError = (res: WireResponse) => res.status >= 400 && res.status < 500;

export const REST: Protocol = { refusal: clientError, summary: (res) => String(res.status) };

const errorCodes = (res: WireResponse) =>
  ((res.json as { errors?: Array<{ extensions?: { code?: unknown } }> } | undefined)?.errors ?? []).map(
    (e) => e.extensions?.code,
  );

/** GraphQL refuses with a 4xx (a request it cannot run) or with errors of the domain's codes (HTTP 200). */
export const GRAPHQL: Protocol = {
  refusal: (res) => clientError(res) || (errorCodes(res).length > 0 && errorCodes(res).every(isDomainCode)),
  summary: (res) => `${res.status} ${errorCodes(res).join(',') || 'no errors'}`,
};

/** A boundary id's answer against its expectation, `missing` being the answer to the same request naming NO_RECORD. */
export function boundaryVerdict(
  check: { label: string; expect: Expectation; missing: WireResponse | Hang | null },
  res: WireResponse,
  protocol: Protocol,
): string | null {
  const { label, expect, missing } = check;
  if (expect === 'answered' || protocol.refusal(res)) return null;
  if (expect === 'refused') return `${label} answered ${protocol.summary(res)}, not a refusal`;
  if (missing === null || missing instanceof Hang) return null;
  const [got, wanted] = [protocol.summary(res), protocol.summary(missing)];
  return got === wanted ? null : `${label} answered ${got} where ${NO_RECORD} gets ${wanted}`;
}
