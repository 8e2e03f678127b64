/**
 * The JSON Schema (2020-12, OpenAPI 3.1's dialect) the description is made of, and the few
 * operations the presenters' descriptions need: each presenter says once, with these, what it
 * does to the shape its GraphQL document selects.
 */
export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  contentMediaType?: string;
  contentEncoding?: string;
}

type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

const typesOf = (schema: JsonSchema): JsonType[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

const withTypes = (schema: JsonSchema, types: JsonType[]): JsonSchema => ({
  ...schema,
  type: types.length === 1 ? types[0] : types,
});

/** The schema, also allowing null (beside an entity's, which stays as it is for the components). */
export function nullable(schema: JsonSchema): JsonSchema {
  const types = typesOf(schema);
  if (schema.title || schema.anyOf || schema.$ref) return { anyOf: [schema, { type: 'null' }] };
  if (types.length === 0) return schema;
  if (types.includes('null')) return schema;
  return withTypes(schema, [...types, 'null']);
}

/** The schema without null: for a value the presenter shows only when it is set. */
export function nonNull(schema: JsonSchema): JsonSchema {
  const types = typesOf(schema).filter((type) => type !== 'null');
  return types.length === 0 ? schema : withTypes(schema, types);
}

/** An object with exactly these properties, all of them present unless `optional` names them. */
export function objectOf(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  };
}

export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** A property's schema; a presenter's description asking for one the document does not select is a bug. */
export function propertyOf(schema: JsonSchema, key: string): JsonSchema {
  const property = schema.properties?.[key];
  if (!property) throw new Error(`the selection has no field ${key}`);
  return property;
}

/** The items of a list's schema. */
export function itemsOf(schema: JsonSchema): JsonSchema {
  if (!schema.items) throw new Error('not a list');
  return schema.items;
}

/** A list's schema with each item described by `present`. */
export const mapItems = (schema: JsonSchema, present: (item: JsonSchema) => JsonSchema): JsonSchema => ({
  ...schema,
  items: present(itemsOf(schema)),
});

/** The object's properties with `changes` applied (undefined removes one), in the object's own order. */
export function withProperties(schema: JsonSchema, changes: Record<string, JsonSchema | undefined>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, value] of Object.entries({ ...schema.properties, ...changes })) {
    if (value !== undefined) properties[key] = value;
  }
  const optional = Object.keys(properties).filter((key) => !(schema.required ?? []).includes(key) && !(key in changes));
  return { ...schema, ...objectOf(properties, optional) };
}

/** Keys the presenter leaves out when their value is null: optional, and never null when present. */
export function shownWhenSet(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, value]) => [key, keys.includes(key) ? nonNull(value) : value]),
  );
  return {
    ...schema,
    properties,
    required: (schema.required ?? []).filter((key) => !keys.includes(key)),
  };
}

/**
 * The shape a presenter that only picks and renames fields gives: the presenter itself, run on the
 * selection's property schemas, returns the answer's property schemas (null where it fills in null
 * for a field the document does not select).
 */
export function presentedShape(present: (value: never) => object, selected: JsonSchema): JsonSchema {
  const shown = present(selected.properties as never) as Record<string, JsonSchema | null>;
  return objectOf(Object.fromEntries(Object.entries(shown).map(([key, value]) => [key, value ?? { type: 'null' }])));
}

export const titled = (title: string, schema: JsonSchema): JsonSchema => ({ title, ...schema });

export const anyOf = (...schemas: JsonSchema[]): JsonSchema => ({ anyOf: schemas });
