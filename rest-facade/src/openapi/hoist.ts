import type { JsonSchema } from './json-schema';

type Json = unknown;

const isTitled = (value: Json): value is JsonSchema & { title: string } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as JsonSchema).title === 'string';

/** Applies `change` to every object and array below `value`, innermost first. */
function transform(value: Json, change: (value: Json) => Json): Json {
  if (Array.isArray(value)) return change(value.map((item) => transform(item, change)));
  if (typeof value === 'object' && value !== null)
    return change(Object.fromEntries(Object.entries(value).map(([key, item]) => [key, transform(item, change)])));
  return value;
}

/**
 * Moves the entity schemas (those the presenters' descriptions title: Project, User, …) into
 * components and refers to them by $ref. Where one title has several shapes (a project with the
 * caller's permissions), the most frequent one is the component and the others stay inline.
 */
export function hoistTitledSchemas<T>(paths: T): { paths: T; schemas: Record<string, JsonSchema> } {
  const refTo = (title: string) => ({ $ref: `#/components/schemas/${encodeURIComponent(title)}` });
  // A shape as it reads once the entities inside it are references, whether they were hoisted or not.
  const shapeOf = (schema: JsonSchema) =>
    JSON.stringify(schema, (key, value: Json) => (key !== '' && isTitled(value) ? refTo(value.title) : value));
  const counts = new Map<string, Map<string, number>>();
  transform(paths, (value) => {
    if (isTitled(value)) {
      const shapes = counts.get(value.title) ?? new Map<string, number>();
      const shape = shapeOf(value);
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
      counts.set(value.title, shapes);
    }
    return value;
  });
  const chosen = new Map(
    [...counts].map(([title, shapes]) => [
      title,
      [...shapes].reduce((best, next) => (next[1] > best[1] ? next : best))[0],
    ]),
  );
  const schemas: Record<string, JsonSchema> = {};
  const hoisted = transform(paths, (value) => {
    if (!isTitled(value) || chosen.get(value.title) !== shapeOf(value)) return value;
    schemas[value.title] = value;
    return refTo(value.title);
  }) as T;
  return { paths: hoisted, schemas };
}
