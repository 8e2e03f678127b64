import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError, ErrorCode } from './errors';
import { pageWindow, type PageWindow } from './pagination';

/**
 * Relay connections over keyset pages, for the public GraphQL schema's lists (GitHub's and
 * GitLab's GraphQL APIs are the model). A cursor names a row's place in one ordering: the values
 * of its sort key, as Postgres prints them, so rows inserted or deleted elsewhere never shift a
 * page the way an offset would. Cursors are opaque, and signed: one that was tampered with, made
 * for another ordering, or made up is refused as BAD_USER_INPUT naming the argument.
 */

/** At most this many rows per page; asking for more is an error, not a silent cap. */
export const MAX_CONNECTION_PAGE = 100;
/** Rows per page when neither `first` nor `last` is given. */
export const DEFAULT_CONNECTION_PAGE = 20;

/** A row's place in an ordering: the sort key's values, most significant first (the id last). */
export type CursorKey = readonly string[];

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/**
 * A page in keyset terms: rows strictly after `after` and before `before` (either may be open),
 * the first `limit` of them (`from: 'start'`) or the last (`from: 'end'`).
 */
export interface KeysetWindow {
  after: CursorKey | null;
  before: CursorKey | null;
  limit: number;
  from: 'start' | 'end';
}

const badInput = (argument: string, message: string) =>
  new DomainError(ErrorCode.BAD_USER_INPUT, message, { argument });

export interface Cursors {
  /** The cursor of a row at `key` in the ordering `ordering` (a list and its sort, e.g. `projects:name:asc`). */
  encode(ordering: string, key: CursorKey): string;
  /** The key a cursor names in `ordering`; BAD_USER_INPUT naming `argument` for anything else. */
  decode(ordering: string, cursor: string, argument: string): CursorKey;
  /** The page that connection arguments ask for, checked (limits, cursors of this ordering). */
  window(ordering: string, args: ConnectionArgs): KeysetWindow;
}

/** Cursors signed with `secret` (the services' shared one), so no caller can forge a position. */
export function createCursors(secret: string): Cursors {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 12);
  const decode = (ordering: string, cursor: string, argument: string): CursorKey => {
    const refused = () => badInput(argument, `"${argument}" is not a cursor of this list: ${JSON.stringify(cursor)}`);
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined || cursor.length > 1024) throw refused();
    // Compared as text: decoding base64 ignores stray trailing characters, so a cursor with one
    // appended would otherwise pass as the original.
    const given = Buffer.from(signature);
    const expected = Buffer.from(sign(payload).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw refused();
    }
    if (!Array.isArray(parsed) || parsed[0] !== ordering || !Array.isArray(parsed[1])) throw refused();
    const key = parsed[1] as unknown[];
    if (!key.every((part): part is string => typeof part === 'string')) throw refused();
    return key;
  };
  const size = (argument: string, value: number | null | undefined) => {
    if (value === null || value === undefined) return null;
    if (!Number.isInteger(value) || value < 0 || value > MAX_CONNECTION_PAGE)
      throw badInput(argument, `"${argument}" must be between 0 and ${MAX_CONNECTION_PAGE}, got ${value}`);
    return value;
  };
  return {
    encode(ordering, key) {
      const payload = Buffer.from(JSON.stringify([ordering, key])).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode,
    window(ordering, args) {
      const first = size('first', args.first);
      const last = size('last', args.last);
      if (first !== null && last !== null) throw badInput('last', 'Give "first" or "last", not both');
      return {
        after: args.after ? decode(ordering, args.after, 'after') : null,
        before: args.before ? decode(ordering, args.before, 'before') : null,
        limit: first ?? last ?? DEFAULT_CONNECTION_PAGE,
        from: last !== null ? 'end' : 'start',
      };
    },
  };
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: PageInfo;
}

/**
 * The connection for a window's rows. `rows` are in the list's order and hold up to `limit + 1`
 * rows read from the window's side (the extra one says there is more that way); `beyond` says
 * whether rows exist past the other bound (the cursor the caller came from), which Postgres
 * answers with one more indexed probe.
 */
export function connectionOf<T>(
  rows: readonly T[],
  window: KeysetWindow,
  beyond: boolean,
  cursorOf: (row: T) => string,
): Connection<T> {
  const more = rows.length > window.limit;
  const page =
    window.from === 'start'
      ? rows.slice(0, window.limit)
      : rows.slice(rows.length - Math.min(rows.length, window.limit));
  const edges = page.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    nodes: [...page],
    pageInfo: {
      hasNextPage: window.from === 'start' ? more : beyond,
      hasPreviousPage: window.from === 'start' ? beyond : more,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/**
 * A list as a connection type resolves it: a keyset page (the public schema's first/after/
 * last/before), or a page by number (the facade's v3 page and per_page, on the internal
 * contract), which has nodes and a total but no cursors.
 */
export interface ConnectionParent<T> {
  nodes: T[];
  edges: Connection<T>['edges'] | null;
  pageInfo: PageInfo | null;
  /** The list's size, counted only when asked for. */
  total: () => Promise<number> | number;
}

export interface ListArgs extends ConnectionArgs {
  page?: number | null;
  perPage?: number | null;
}

/** How one list reads its rows: by page number, by keyset, and its size. */
export interface ListReads<T> {
  /** The ordering cursors are made for (a list and its sort), e.g. `issues:created_at:desc`. */
  ordering: string;
  byNumber(window: PageWindow): Promise<{ rows: T[]; total: number }>;
  byKeyset(window: KeysetWindow): Promise<{ rows: Array<T & { sortKey: string[] }>; beyond: boolean }>;
  count(): Promise<number>;
}

/** The list `args` ask for: by number when `page` or `perPage` is given (the facade's), else by cursors. */
export async function pagedList<T>(
  cursors: Cursors,
  args: ListArgs,
  reads: ListReads<T>,
): Promise<ConnectionParent<T>> {
  if (args.page != null || args.perPage != null) {
    const { rows, total } = await reads.byNumber(pageWindow(args.page, args.perPage));
    return { nodes: rows, edges: null, pageInfo: null, total: () => total };
  }
  const window = cursors.window(reads.ordering, args);
  const { rows, beyond } = await reads.byKeyset(window);
  const page = connectionOf<T & { sortKey: string[] }>(rows, window, beyond, (row) =>
    cursors.encode(reads.ordering, row.sortKey),
  );
  return { ...page, total: () => reads.count() };
}

const noCursors = (field: string) =>
  new DomainError(ErrorCode.BAD_USER_INPUT, `A page asked for by number has no ${field}: page with first and after`, {
    argument: 'page',
  });

/** The fields of every connection type, over a ConnectionParent. */
export const connectionResolvers = {
  edges: <T>(parent: ConnectionParent<T>) => parent.edges ?? Promise.reject(noCursors('edges')),
  pageInfo: <T>(parent: ConnectionParent<T>) => parent.pageInfo ?? Promise.reject(noCursors('pageInfo')),
  nodes: <T>(parent: ConnectionParent<T>) => parent.nodes,
  count: <T>(parent: ConnectionParent<T>) => parent.total(),
  total: <T>(parent: ConnectionParent<T>) => parent.total(),
};

/**
 * A keyset page over a list held in memory (a repository's branches, tags, a folder's entries):
 * `keyOf` gives each item's sort key and `compare` orders keys, a total order the page sorts the
 * items by. Answers what a ListReads' byKeyset answers, so git's lists page as the tables do.
 */
export function keysetPageOf<T extends object>(
  items: readonly T[],
  keyOf: (item: T) => CursorKey,
  compare: (a: CursorKey, b: CursorKey) => number,
  window: KeysetWindow,
): { rows: Array<T & { sortKey: string[] }>; beyond: boolean } {
  const keyed = items
    .map((item) => ({ ...item, sortKey: [...keyOf(item)] }))
    .sort((a, b) => compare(a.sortKey, b.sortKey));
  const { after, before } = window;
  const inside = keyed.filter(
    (item) => (!after || compare(item.sortKey, after) > 0) && (!before || compare(item.sortKey, before) < 0),
  );
  const rows = window.from === 'start' ? inside.slice(0, window.limit + 1) : inside.slice(-(window.limit + 1));
  // Whether items lie past the cursor the caller came from, on the side away from the window.
  const beyond =
    window.from === 'start'
      ? !!after && keyed.some((item) => compare(item.sortKey, after) <= 0)
      : !!before && keyed.some((item) => compare(item.sortKey, before) >= 0);
  return { rows, beyond };
}

/** Orders keys part by part as text (each part compared by code unit, as git sorts ref names). */
export const compareKeysAsText = (a: CursorKey, b: CursorKey) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i] ?? '', b[i] ?? ''];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};
