import { DomainError, ErrorCode } from './errors';

/**
 * Global ids for the public schema's `Node` interface, on GitLab's model: `gid://hub/Project/12`
 * names one object of the whole graph, so `node(id:)` can refetch it knowing nothing else. Callers
 * treat them as opaque; the numeric id each type had stays readable as `databaseId`.
 *
 * The global id is an entity key (`@key(fields: "id")`) in the subgraph that owns the type, beside
 * `@key(fields: "databaseId")`, which every other subgraph uses to reference it.
 */

/** Every type that implements `Node`, by the subgraph that owns it. */
export const NODE_OWNERS = {
  User: 'identity',
  Namespace: 'identity',
  Group: 'identity',
  Project: 'projects',
  Issue: 'notes',
  Milestone: 'notes',
  Label: 'notes',
  Snippet: 'notes',
  Note: 'notes',
  MergeRequest: 'mergerequests',
  Hook: 'hooks',
  SystemHook: 'hooks',
  HookDelivery: 'hooks',
  SshKey: 'identity',
  ProjectEvent: 'projects',
} as const;
export type NodeType = keyof typeof NODE_OWNERS;

const PREFIX = 'gid://hub/';
// Ids come from Postgres `serial`/`bigserial` sequences: positive, and within JavaScript's safe range.
const SHAPE = /^gid:\/\/hub\/([A-Za-z]+)\/([1-9][0-9]{0,15})$/;

export const isNodeType = (type: string): type is NodeType => Object.hasOwn(NODE_OWNERS, type);

/** The global id of `type`'s object with numeric id `id`. */
export const toGlobalId = (type: NodeType, id: number): string => `${PREFIX}${type}/${id}`;

/** What a well-formed global id names, or null when `value` is not one (any type, any number). */
export function parseGlobalId(value: unknown): { type: NodeType; id: number } | null {
  if (typeof value !== 'string') return null;
  const match = SHAPE.exec(value);
  if (!match || !isNodeType(match[1]!)) return null;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { type: match[1] as NodeType, id } : null;
}

/** `value` parsed, or BAD_USER_INPUT naming `argument`: a caller's id that is not one of ours is their error. */
export function requireGlobalId(value: string, argument: string): { type: NodeType; id: number } {
  const parsed = parseGlobalId(value);
  if (!parsed)
    throw new DomainError(ErrorCode.BAD_USER_INPUT, `"${argument}" is not a global id: ${JSON.stringify(value)}`, {
      argument,
    });
  return parsed;
}

/**
 * The numeric id an entity reference names: `{ databaseId }` from another subgraph, or `{ id }`
 * (a global id) from `node(id:)`. Null when the global id is malformed or names another type, so
 * the reference resolves to null, as for an object that does not exist.
 */
export function referencedDatabaseId(type: NodeType, reference: { id?: unknown; databaseId?: unknown }): number | null {
  if (typeof reference.databaseId === 'number') return reference.databaseId;
  const parsed = parseGlobalId(reference.id);
  return parsed && parsed.type === type ? parsed.id : null;
}

/** Whether an entity reference came from `node(id:)` (keyed by global id), which must check visibility in full. */
export const isGlobalIdReference = (reference: { id?: unknown; databaseId?: unknown }): boolean =>
  typeof reference.databaseId !== 'number' && reference.id !== undefined;

/** Refusals that mean "the caller may not see it": a reference answers null for them, as for nothing there. */
const UNSEEN_CODES = new Set<string>([ErrorCode.NOT_FOUND, ErrorCode.FORBIDDEN, ErrorCode.UNAUTHENTICATED]);

/**
 * What a read as the caller answers, or null when it refuses as not found, forbidden or signed
 * out; anything else (a service down) is thrown on, never passed off as invisible.
 */
export async function readOrNull<T>(read: () => Promise<T | null | undefined>): Promise<T | null> {
  try {
    return (await read()) ?? null;
  } catch (error) {
    if (error instanceof DomainError && UNSEEN_CODES.has(error.code)) return null;
    throw error;
  }
}

/**
 * Whether a global id's number fits Postgres' `integer`, the type of most tables' ids: one that
 * does not names no row there, and must not reach a query (Postgres refuses it as out of range).
 */
export const fitsIntegerColumn = (id: number) => id <= 2_147_483_647;

/** `nodes(ids:)` and the owners' lookups (`ownedNodes`) take at most this many ids at once. */
export const MAX_NODE_IDS = 100;

/** `ids` within MAX_NODE_IDS, each a global id: their parsed forms, or BAD_USER_INPUT naming the argument. */
export function requireGlobalIds(ids: readonly string[]): { type: NodeType; id: number }[] {
  if (ids.length > MAX_NODE_IDS)
    throw new DomainError(ErrorCode.BAD_USER_INPUT, `"ids" holds at most ${MAX_NODE_IDS} ids, got ${ids.length}`, {
      argument: 'ids',
    });
  return ids.map((id) => requireGlobalId(id, 'ids'));
}

/**
 * An owner's batch lookup of one type it owns by global id (`issueNodes(ids:)`, say): what
 * `nodes(ids:)` answers for those ids, in one hop. `nodes(ids:)` is answered by projects, which asks
 * the owner's `_entities` whether the caller may see each object before the gateway asks the owner
 * again for its fields; here the owner's entity resolution (`resolveReference`, the rule of its
 * `_entities` for a reference by global id) is the whole answer. An object the caller may not see is
 * null, as one that does not exist; an id of another type is BAD_USER_INPUT.
 */
export function ownedNodes<N extends NodeType, R, C, I>(
  type: N,
  resolveReference: (reference: { __typename: N; id: string }, context: C, info: I) => R,
) {
  // What a reference resolver may answer besides the object: another reference, which ours never do.
  type Resolved = Exclude<Awaited<R>, { __typename: N }>;
  return (_parent: unknown, { ids }: { ids: readonly string[] }, context: C, info: I): Promise<Resolved[]> => {
    requireGlobalIds(ids).forEach((parsed, index) => {
      if (parsed.type !== type)
        throw new DomainError(
          ErrorCode.BAD_USER_INPUT,
          `"ids" holds ${JSON.stringify(ids[index])}, not a global id of type ${type}`,
          {
            argument: 'ids',
          },
        );
    });
    return Promise.all(ids.map((id) => resolveReference({ __typename: type, id }, context, info) as Resolved));
  };
}
