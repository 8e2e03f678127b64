import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { nonNull, type JsonSchema } from './json-schema';

/** The JSON Schema of each scalar the graph has; one it does not know fails the description's build. */
const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  ID: { type: 'string' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  // Any JSON value (a hook's sample payload, an event's data).
  JSON: {},
};

/** A field of a selection set, merged over fragments: its definition and every selection set under it. */
interface CollectedField {
  definition: GraphQLField<unknown, unknown>;
  selections: SelectionSetNode[];
}

/** The JSON Schemas of the answers the facade's GraphQL documents get, derived from the schema. */
export interface GraphQLShapes {
  /**
   * The schema of the value at `path` (response keys, dot-separated: aliases as the document
   * names them) in the document's answer: non-null fields are required and never null, nullable
   * ones allow null, lists are arrays, objects have exactly the selected fields. The value itself
   * is never null: where the graph may answer null there, the route answers 404 (or says what
   * else it answers).
   */
  select(document: TypedDocumentNode<unknown, unknown> | DocumentNode, path: string): JsonSchema;
}

export function graphqlShapes(schema: GraphQLSchema): GraphQLShapes {
  /** The fields a selection set selects on `type`, by response key, fragments spread in. */
  function collect(
    type: GraphQLObjectType,
    selectionSets: SelectionSetNode[],
    fragments: Map<string, FragmentDefinitionNode>,
  ): Map<string, CollectedField> {
    const fields = new Map<string, CollectedField>();
    const visit = (set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          if (selection.name.value === '__typename') continue;
          const definition = type.getFields()[selection.name.value];
          if (!definition) throw new Error(`${type.name} has no field ${selection.name.value}`);
          const field = fields.get(key) ?? { definition, selections: [] };
          if (selection.selectionSet) field.selections.push(selection.selectionSet);
          fields.set(key, field);
        } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value);
          if (!fragment) throw new Error(`unknown fragment ${selection.name.value}`);
          visit(fragment.selectionSet);
        } else {
          visit(selection.selectionSet);
        }
      }
    };
    selectionSets.forEach(visit);
    return fields;
  }

  function toSchema(
    type: GraphQLOutputType,
    selections: SelectionSetNode[],
    fragments: Map<string, FragmentDefinitionNode>,
    nullable = true,
  ): JsonSchema {
    if (isNonNullType(type)) return toSchema(type.ofType, selections, fragments, false);
    const orNull = (schema: JsonSchema): JsonSchema => {
      if (!nullable) return schema;
      if (schema.type === undefined) return schema; // JSON: null is already a JSON value
      return {
        ...schema,
        type: [schema.type as 'string', 'null'],
        ...(schema.enum && { enum: [...schema.enum, null] }),
      };
    };
    if (isListType(type)) return orNull({ type: 'array', items: toSchema(type.ofType, selections, fragments) });
    if (isScalarType(type)) {
      const scalar = SCALARS[type.name];
      if (!scalar) throw new Error(`no JSON Schema for the scalar ${type.name}`);
      return orNull(scalar);
    }
    if (isEnumType(type)) return orNull({ type: 'string', enum: type.getValues().map((value) => value.name) });
    if (!isObjectType(type)) throw new Error(`the facade's documents select no ${type.toString()}`);
    const properties: Record<string, JsonSchema> = {};
    for (const [key, field] of collect(type, selections, fragments)) {
      const property = toSchema(field.definition.type, field.selections, fragments);
      properties[key] = field.definition.description
        ? { ...property, description: field.definition.description }
        : property;
    }
    return orNull({
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
  }

  return {
    select(document, path) {
      const definitions = (document as DocumentNode).definitions;
      const operation = definitions.find(
        (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
      );
      if (!operation) throw new Error('a document without an operation');
      const fragments = new Map(
        definitions
          .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
          .map((fragment) => [fragment.name.value, fragment]),
      );
      const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
      if (!root) throw new Error(`the schema has no ${operation.operation} type`);
      let type: GraphQLObjectType = root;
      let selections = [operation.selectionSet];
      const keys = path.split('.');
      for (const [index, key] of keys.entries()) {
        const field = collect(type, selections, fragments).get(key);
        if (!field)
          throw new Error(
            `${operation.name?.value ?? 'the operation'} selects no ${keys.slice(0, index + 1).join('.')}`,
          );
        if (index === keys.length - 1) return nonNull(toSchema(field.definition.type, field.selections, fragments));
        const named = getNamedType(field.definition.type);
        if (!isObjectType(named)) throw new Error(`${key} is not an object in ${path}`);
        [type, selections] = [named, field.selections];
      }
      throw new Error('an empty path');
    },
  };
}
