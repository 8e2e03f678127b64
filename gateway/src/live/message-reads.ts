import { DomainError, ErrorCode } from '@hub/common';
import {
  getDirectiveValues,
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  parse,
  print,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLResolveInfo,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type VariableDefinitionNode,
} from 'graphql';

/**
 * How a subscription reads the objects of its messages through the supergraph: the subscriber's
 * own selection of each object field, asked of the type owner's lookup by global ids (`lookups`;
 * `nodes(ids:)` for a type without one) under the subscriber's principal,
 * beside a `gate` that says whether each message's primary object is visible to them at all. One
 * query reads the objects of many messages (live-reads.ts batches them): planned once when the
 * subscription starts, so the gateway plans it once and every batch reuses it.
 */
export interface MessageReadPlan {
  /**
   * The query: for each object field `f`, the variable `idsVariable(f)` lists the global ids to
   * read; the gate reads the primary field's ids under GATE_ALIAS, each selection under its alias.
   */
  query: string;
  /** The object fields whose ids the query takes, the primary first. */
  idFields: string[];
  /** Each response key the subscriber selected an object field under, and its alias in the query. */
  selections: Array<{ responseKey: string; field: string; alias: string }>;
  /** The values of the subscriber's variables the query uses. */
  variables: Record<string, unknown>;
  /** Equal for plans that read the same way: the query and the values of its variables. */
  key: string;
}

/** The alias of the visibility check in every query. */
export const GATE_ALIAS = 'hubGate';
/** The variable listing an object field's global ids. */
export const idsVariable = (field: string) => `hubLive_${field}`;
/** `nodes(ids:)` and the owners' lookups take at most this many ids at once. */
export const MAX_IDS = 100;

/** By object type: the root field that reads objects of the type by global ids in one hop. */
export type OwnerLookups = ReadonlyMap<string, string>;

/**
 * The owners' lookups a schema has: `<type>Nodes(ids: [ID!]!): [<Type>]!` (services/common's
 * `ownedNodes`), which answer as `nodes(ids:)` does. `nodes(ids:)` is answered by projects, which
 * asks the owner whether the viewer may see each object before the gateway asks the owner again for
 * its fields: three hops in turn where the lookup takes one. The lookups are internal (the
 * contract the facade and these reads run on), not the public contract.
 */
export function ownerLookupsOf(schema: GraphQLSchema): OwnerLookups {
  const lookups = new Map<string, string>();
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    const type = getNamedType(field.type);
    const ids = field.args.find((arg) => arg.name === 'ids');
    if (
      field.name === `${type.name[0]!.toLowerCase()}${type.name.slice(1)}Nodes` &&
      String(field.type) === `[${type.name}]!` &&
      ids &&
      String(ids.type) === '[ID!]!'
    )
      lookups.set(type.name, field.name);
  }
  return lookups;
}

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
const typename: FieldNode = { kind: Kind.FIELD, name: name('__typename') };

/** Every selection set gets __typename, so that abstract types inside can be told apart again. */
const withTypenames = <T extends DocumentNode>(document: T): T =>
  visit(document, {
    SelectionSet: (set: SelectionSetNode) =>
      set.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename' && !s.alias)
        ? undefined
        : { ...set, selections: [typename, ...set.selections] },
  });

function nodeField(
  alias: string,
  field: string,
  type: string,
  selections: readonly SelectionNode[],
  lookups: OwnerLookups,
): FieldNode {
  return {
    kind: Kind.FIELD,
    alias: name(alias),
    name: name(lookups.get(type) ?? 'nodes'),
    arguments: [
      {
        kind: Kind.ARGUMENT,
        name: name('ids'),
        value: { kind: Kind.VARIABLE, name: name(idsVariable(field)) },
      },
    ],
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: [
        typename,
        {
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: { kind: Kind.NAMED_TYPE, name: name(type) },
          selectionSet: { kind: Kind.SELECTION_SET, selections },
        },
      ],
    },
  };
}

export function planMessageReads(
  info: GraphQLResolveInfo,
  messageType: GraphQLObjectType,
  gate: { primary: string; selection?: string },
  lookups: OwnerLookups = new Map(),
): MessageReadPlan {
  const fields = messageType.getFields();
  const objectFields = new Set(
    Object.values(fields)
      .filter((field) => 'getFields' in getNamedType(field.type))
      .map((field) => field.name),
  );
  const typeOf = (field: string) => getNamedType(fields[field]!.type).name;
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, info.variableValues)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues)?.if !== false;

  // The subscriber's selections of each object field, by response key, through its fragments.
  const byKey = new Map<string, { field: string; selections: SelectionNode[] }>();
  const collect = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) collect(info.fragments[selection.name.value]?.selectionSet);
      else if (objectFields.has(selection.name.value)) {
        const key = selection.alias?.value ?? selection.name.value;
        const entry = byKey.get(key) ?? { field: selection.name.value, selections: [] };
        entry.selections.push(...(selection.selectionSet?.selections ?? []));
        byKey.set(key, entry);
      }
    }
  };
  for (const node of info.fieldNodes) collect(node.selectionSet);
  const selections = [...byKey].map(([responseKey, { field }], index) => ({
    responseKey,
    field,
    alias: `hub${index}`,
  }));

  // What those selections use of the operation: its fragments (transitively) and variables.
  const fragmentNames = new Set<string>();
  const variableNames = new Set<string>();
  const scan = (node: unknown) =>
    visit(node as DocumentNode, {
      FragmentSpread(spread) {
        if (fragmentNames.has(spread.name.value)) return;
        fragmentNames.add(spread.name.value);
        const fragment = info.fragments[spread.name.value];
        if (fragment) scan(fragment);
      },
      Variable(variable) {
        variableNames.add(variable.name.value);
      },
    });
  for (const { selections: chosen } of byKey.values()) for (const selection of chosen) scan(selection);
  const fragments: FragmentDefinitionNode[] = [...fragmentNames].flatMap((n) => info.fragments[n] ?? []);
  const userVariables: VariableDefinitionNode[] = (info.operation.variableDefinitions ?? []).filter((definition) =>
    variableNames.has(definition.variable.name.value),
  );
  for (const definition of userVariables)
    if (definition.variable.name.value.startsWith('hubLive_'))
      throw new DomainError(
        ErrorCode.BAD_USER_INPUT,
        `variable names starting with "hubLive_" are reserved in subscriptions: $${definition.variable.name.value}`,
      );

  const gateSelections = gate.selection
    ? (parse(`{ ${gate.selection} }`).definitions[0] as { selectionSet: SelectionSetNode }).selectionSet.selections
    : [];
  const idFields = [...new Set([gate.primary, ...selections.map((s) => s.field)])];
  const variables = Object.fromEntries(
    userVariables.map((definition) => [
      definition.variable.name.value,
      info.variableValues[definition.variable.name.value],
    ]),
  );
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: 'query' as never,
        name: name('LiveMessages'),
        variableDefinitions: [
          ...idFields.map((field): VariableDefinitionNode => ({
            kind: Kind.VARIABLE_DEFINITION,
            variable: { kind: Kind.VARIABLE, name: name(idsVariable(field)) },
            type: {
              kind: Kind.NON_NULL_TYPE,
              type: {
                kind: Kind.LIST_TYPE,
                type: { kind: Kind.NON_NULL_TYPE, type: { kind: Kind.NAMED_TYPE, name: name('ID') } },
              },
            },
          })),
          ...userVariables,
        ],
        selectionSet: {
          kind: Kind.SELECTION_SET,
          selections: [
            nodeField(GATE_ALIAS, gate.primary, typeOf(gate.primary), gateSelections, lookups),
            ...selections.map(({ field, alias, responseKey }) =>
              nodeField(alias, field, typeOf(field), byKey.get(responseKey)!.selections, lookups),
            ),
          ],
        },
      },
      ...fragments,
    ],
  };
  const query = print(withTypenames(document));
  return { query, idFields, selections, variables, key: `${query}\n${JSON.stringify(variables)}` };
}

/** A plan as subscriptions share it: `id` is short and equal for plans with the same `key`. */
export interface SharedPlan extends MessageReadPlan {
  id: string;
}

/** Distinct plans kept (by `key`); past it, the oldest is forgotten, and an equal plan made later gets an id of its own. */
const PLANS_KEPT = 500;
/** Plans kept per operation (one per set of variable values), past which further ones are planned each time. */
const PLANS_PER_OPERATION = 1000;

/**
 * `planMessageReads`, planned once per operation and variable values, and one plan object for
 * all plans with the same key. Subscriptions of one document (its operation is one object while
 * live-server.ts keeps the document parsed) usually plan alike: 1,000 open subscriptions held
 * 1,000 plans, each a printed query of some sixty joined pieces and a group key holding it again,
 * about 5 MiB of the gateway's heap, and planning each made the garbage that grew its heap while
 * they opened.
 */
export function createReadPlans(lookups: OwnerLookups) {
  const byOperation = new WeakMap<OperationDefinitionNode, Map<string, SharedPlan>>();
  const byKey = new Map<string, SharedPlan>();
  let made = 0;
  return (info: GraphQLResolveInfo, messageType: GraphQLObjectType, gate: { primary: string; selection?: string }) => {
    let plans = byOperation.get(info.operation);
    if (!plans) byOperation.set(info.operation, (plans = new Map()));
    const variables = `${info.fieldName}\n${JSON.stringify(info.variableValues)}`;
    const known = plans.get(variables);
    if (known) return known;
    const plan = planMessageReads(info, messageType, gate, lookups);
    let shared = byKey.get(plan.key);
    if (!shared) {
      shared = { ...plan, id: String(++made) };
      if (byKey.size >= PLANS_KEPT) byKey.delete(byKey.keys().next().value!);
      byKey.set(plan.key, shared);
    }
    if (plans.size < PLANS_PER_OPERATION) plans.set(variables, shared);
    return shared;
  };
}
