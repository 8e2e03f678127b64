import {
  containsPattern,
  keysetSql,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import type { NamespaceCopyRow } from './namespaces';

/** A row of projects.projects, camelCased. */
export interface ProjectRow {
  id: number;
  namespaceId: number;
  namespacePath: string;
  namespaceName: string;
  ownerId: number | null;
  creatorId: number;
  name: string;
  path: string;
  description: string | null;
  defaultBranch: string;
  visibilityLevel: number;
  issuesEnabled: boolean;
  mergeRequestsEnabled: boolean;
  wikiEnabled: boolean;
  snippetsEnabled: boolean;
  archived: boolean;
  importUrl: string | null;
  tagList: string[];
  forkedFromProjectId: number | null;
  /** The git worker shard holding the repository (GIT_WORKER_SHARDS' name). */
  repositoryStorage: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  lastActivityAt: Date;
}

/** Columns a create sets. */
export type ProjectInsert = Omit<
  ProjectRow,
  'id' | 'version' | 'createdAt' | 'updatedAt' | 'lastActivityAt' | 'tagList'
>;
/** Columns an update may change. */
export type ProjectChanges = Partial<
  Pick<
    ProjectRow,
    | 'name'
    | 'path'
    | 'description'
    | 'defaultBranch'
    | 'visibilityLevel'
    | 'issuesEnabled'
    | 'mergeRequestsEnabled'
    | 'wikiEnabled'
    | 'snippetsEnabled'
    | 'archived'
    | 'forkedFromProjectId'
    | 'namespaceId'
    | 'namespacePath'
    | 'namespaceName'
    | 'ownerId'
  >
>;

type Db = Sql | TransactionSql;

/**
 * A project as the reads that show one return it: the row, its namespace copy (null when projects
 * holds none yet) and its fork count, read in the statement that finds the row. Showing a page
 * then costs one round trip to Postgres instead of three; rows from writes lack the extras and
 * the resolvers load them.
 */
export interface ShownProjectRow extends ProjectRow {
  namespaceCopy: NamespaceCopyRow | null;
  forksCount: number;
  /** What Project.revision is made from (revisionDigest). */
  revision: string;
}

/**
 * A list row when the list is asked for ids and revisions only: the facade's first question for a
 * page, answered without reading the rows' other columns into the process.
 */
export type RevisionRow = Pick<ShownProjectRow, 'id' | 'forkedFromProjectId' | 'revision'>;

/** What a Project resolver gets: a row, with the extras when a read brought them. */
export type ProjectParent = ProjectRow & Partial<Pick<ShownProjectRow, 'namespaceCopy' | 'forksCount' | 'revision'>>;

type Fragment = ReturnType<Sql>;

/**
 * What a shown row joins for its extras: `p` is the page's rows, `n` their namespace copies, `fc`
 * their fork counts.
 */
const shownJoins = (sql: Db, rows: Fragment): Fragment => sql`
    from (${rows}) p left join namespaces n on n.id = p.namespace_id
    cross join lateral (select count(*)::int as forks_count from projects f where f.forked_from_project_id = p.id) fc`;

/**
 * What Project.revision is made from: which version of each row the project's fields are read
 * from. Postgres writes every change of a row as a new row version stamped with its transaction's
 * id (xmin), so the row's xmin changes with any column, those no field shows today included; the
 * rows are the project's, its namespace copy (the owner's profile is in it), its fork source's
 * and that source's namespace copy, with the fork count. A transaction id names a row version in
 * one database cluster only: the cluster's identifier makes a restore into another cluster (whose
 * transaction ids start again) differ too. The ids are 32-bit: a stamp could come back only for a
 * row changed again by the one transaction four billion later that reuses its id, while a replica
 * still holds the old rendering. Scalar subqueries, so each lookup is one index probe:
 * joined, Postgres read the whole table to find the sources of a page without forks.
 */
const revisionDigest = (sql: Db): Fragment =>
  sql`concat_ws('.',
    (select system_identifier from pg_control_system()),
    (select x.xmin from projects x where x.id = p.id), n.xmin, fc.forks_count,
    (select s.xmin::text || '.' || coalesce(sn.xmin::text, '') from projects s
      left join namespaces sn on sn.id = s.namespace_id where s.id = p.forked_from_project_id))`;

/** `rows` (a subquery of projects rows) with their extras, in `order` (the page's, re-applied). */
async function selectShown(sql: Db, rows: Fragment, order: Fragment = sql``): Promise<ShownProjectRow[]> {
  const found = await sql<ExtrasRow[]>`
    select p.*, fc.forks_count, ${revisionDigest(sql)} as revision,
      n.id as ns_id, n.path as ns_path, n.name as ns_name, n.kind as ns_kind, n.description as ns_description,
      n.owner_id as ns_owner_id, n.owner as ns_owner, n.created_at as ns_created_at, n.updated_at as ns_updated_at
    ${shownJoins(sql, rows)} ${order}`;
  return found.map(shown);
}

/** `rows` as ids and revisions only, in `order`. */
function selectRevisions(sql: Db, rows: Fragment, order: Fragment): Promise<RevisionRow[]> {
  return sql<RevisionRow[]>`
    select p.id, p.forked_from_project_id, ${revisionDigest(sql)} as revision
    ${shownJoins(sql, rows)} ${order}`;
}

type ExtrasRow = ProjectRow & { forksCount: number; revision: string } & {
  [K in keyof NamespaceCopyRow as `ns${Capitalize<K>}`]: NamespaceCopyRow[K] | null;
};

/** The ns* columns: the namespace copy's, read beside the row's own. */
const isNamespaceColumn = (key: string) =>
  key.length > 2 && key[0] === 'n' && key[1] === 's' && key[2] >= 'A' && key[2] <= 'Z';

/**
 * The row without its ns* columns, and the namespace copy they make. One loop over the keys: a
 * rest pattern excluding nine names took 11 µs per row (an eighth of this process's time on a
 * list page of 100), the loop 3.
 */
function shown(row: ExtrasRow): ShownProjectRow {
  const shownRow: Record<string, unknown> = {};
  for (const key in row) if (!isNamespaceColumn(key) && key !== 'revision') shownRow[key] = row[key as keyof ExtrasRow];
  // Beside the row rather than one of its columns: not copied with it or compared as part of it.
  Object.defineProperty(shownRow, 'revision', { value: row.revision, enumerable: false });
  shownRow.namespaceCopy =
    row.nsId === null
      ? null
      : {
          id: row.nsId,
          path: row.nsPath!,
          name: row.nsName!,
          kind: row.nsKind!,
          description: row.nsDescription!,
          ownerId: row.nsOwnerId,
          owner: row.nsOwner,
          createdAt: row.nsCreatedAt!,
          updatedAt: row.nsUpdatedAt!,
        };
  return shownRow as unknown as ShownProjectRow;
}

export async function findShownProjectsByIds(sql: Db, ids: readonly number[]): Promise<ShownProjectRow[]> {
  return selectShown(sql, sql`select * from projects where id in ${sql(ids as number[])}`);
}

export async function findProjectsByIds(sql: Db, ids: readonly number[]): Promise<ProjectRow[]> {
  return sql<ProjectRow[]>`select * from projects where id in ${sql(ids as number[])}`;
}

export async function findProjectByFullPath(
  sql: Db,
  namespacePath: string,
  path: string,
): Promise<ShownProjectRow | undefined> {
  const [row] = await selectShown(
    sql,
    sql`select * from projects where lower(namespace_path) = lower(${namespacePath}) and lower(path) = lower(${path})`,
  );
  return row;
}

/** Which of `name` and `path` another project of the namespace already uses. */
export async function takenInNamespace(
  sql: Db,
  namespaceId: number,
  name: string | undefined,
  path: string | undefined,
  exceptId: number | null,
): Promise<{ name: boolean; path: boolean }> {
  const rows = await sql<{ name: string; path: string }[]>`
    select name, path from projects
    where namespace_id = ${namespaceId} and id <> ${exceptId ?? 0}
      and (lower(name) = lower(${name ?? ''}) or lower(path) = lower(${path ?? ''}))`;
  return {
    name: name !== undefined && rows.some((r) => r.name.toLowerCase() === name.toLowerCase()),
    path: path !== undefined && rows.some((r) => r.path.toLowerCase() === path.toLowerCase()),
  };
}

export async function insertProject(tx: TransactionSql, values: ProjectInsert): Promise<ProjectRow> {
  const [row] = await tx<ProjectRow[]>`insert into projects ${tx(values as never)} returning *`;
  return row;
}

export async function updateProject(
  tx: TransactionSql,
  id: number,
  changes: ProjectChanges,
): Promise<ProjectRow | undefined> {
  // postgres.js expands an object into `col = value, ...` only right after `set`.
  const [row] = Object.keys(changes).length
    ? await tx<ProjectRow[]>`
        update projects set ${tx(changes as Record<string, unknown>)}, version = version + 1, updated_at = now() where id = ${id} returning *`
    : await tx<
        ProjectRow[]
      >`update projects set version = version + 1, updated_at = now() where id = ${id} returning *`;
  return row;
}

/** Records `id` as a fork of `forkedFromId` unless it is already a fork of something. */
export async function setForkedFrom(
  tx: TransactionSql,
  id: number,
  forkedFromId: number,
): Promise<ProjectRow | undefined> {
  const [row] = await tx<ProjectRow[]>`
    update projects set forked_from_project_id = ${forkedFromId}, version = version + 1, updated_at = now()
    where id = ${id} and forked_from_project_id is null returning *`;
  return row;
}

export async function deleteProject(tx: TransactionSql, id: number): Promise<ProjectRow | undefined> {
  const [row] = await tx<ProjectRow[]>`delete from projects where id = ${id} returning *`;
  return row;
}

export async function countForks(sql: Db, ids: readonly number[]): Promise<Map<number, number>> {
  const rows = await sql<{ id: number; count: number }[]>`
    select forked_from_project_id as id, count(*)::int as count from projects
    where forked_from_project_id in ${sql(ids as number[])} group by forked_from_project_id`;
  return new Map(rows.map((r) => [r.id, r.count]));
}

/** A personal namespace was renamed (its owner's username changed). */
export async function renameNamespace(tx: TransactionSql, ownerId: number, path: string, name: string): Promise<void> {
  await tx`update projects set namespace_path = ${path}, namespace_name = ${name}
    where owner_id = ${ownerId} and (namespace_path <> ${path} or namespace_name <> ${name})`;
}

export async function projectIdsOwnedBy(sql: Db, ownerId: number): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`select id from projects where owner_id = ${ownerId}`;
  return rows.map((r) => r.id);
}

export async function projectIdsInNamespace(sql: Db, namespaceId: number): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`select id from projects where namespace_id = ${namespaceId}`;
  return rows.map((r) => r.id);
}

export async function touchActivity(tx: TransactionSql, id: number, at: Date): Promise<void> {
  await tx`update projects set last_activity_at = ${at} where id = ${id} and last_activity_at < ${at}`;
}

export type ProjectOrder = 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';

/** Who may appear in a list; the resolver turns the viewer and scope into one of these. */
export type ListAudience =
  | { kind: 'all' }
  | { kind: 'owner'; userId: number }
  | { kind: 'member'; userId: number; memberOf: number[] }
  /** Their own and member projects, plus every internal and public one. */
  | { kind: 'visible'; userId: number; memberOf: number[] };

export interface ListFilter {
  audience: ListAudience;
  archived?: boolean | null;
  /** GitLab 7.14's Project.search: name, path, namespace name or description; never archived projects. */
  search?: string | null;
  /** The name alone (GitLab's /projects/search/:query). */
  nameContains?: string | null;
  /** The projects of one namespace (a group's). */
  namespaceId?: number;
  orderBy: ProjectOrder;
  sort: 'asc' | 'desc';
}

/** Who and what a list holds, as SQL: the audience and filters of `filter`. */
function listConditions(sql: Db, filter: ListFilter) {
  const a = filter.audience;
  const memberOf = a.kind === 'member' || a.kind === 'visible' ? a.memberOf : [];
  // No `or id = any('{}')` for a user who is a member of nothing beyond their own projects: it
  // would keep Postgres from reading the owner's projects in the order of their index.
  const memberClause = memberOf.length ? sql`or id = any(${memberOf}::int[])` : sql``;
  const audience =
    a.kind === 'all'
      ? sql``
      : a.kind === 'owner'
        ? sql`and owner_id = ${a.userId}`
        : a.kind === 'member'
          ? sql`and (owner_id = ${a.userId} ${memberClause})`
          : sql`and (visibility_level >= 10 or owner_id = ${a.userId} ${memberClause})`;
  const filters = sql`
    ${filter.archived === undefined || filter.archived === null ? sql`` : sql`and archived = ${filter.archived}`}
    ${
      filter.search
        ? sql`and not archived and (name ilike ${containsPattern(filter.search)} or path ilike ${containsPattern(filter.search)}
            or namespace_name ilike ${containsPattern(filter.search)} or description ilike ${containsPattern(filter.search)})`
        : sql``
    }
    ${filter.nameContains ? sql`and name ilike ${containsPattern(filter.nameContains)}` : sql``}
    ${filter.namespaceId !== undefined ? sql`and namespace_id = ${filter.namespaceId}` : sql``}`;
  // A member's own projects or those they are members of: as one `or`, Postgres reads and sorts
  // every project the user owns before it takes a page. Each part alone reads its index in order
  // and stops after the rows a page needs; the page is taken from the union of those.
  const memberParts = a.kind === 'member' && memberOf.length ? { userId: a.userId, memberOf } : null;
  return { where: sql`where true ${audience} ${filters}`, filters, memberParts };
}

/** `select * from projects` for a page: `where` (and `extra`), in `order`, at most `limit` rows. */
function pageRows(
  sql: Db,
  conditions: ReturnType<typeof listConditions>,
  extra: Fragment,
  order: Fragment,
  limit: number,
  offset = 0,
  columns: Fragment = sql`*`,
): Fragment {
  const parts = conditions.memberParts;
  if (!parts)
    return sql`select ${columns} from projects ${conditions.where} ${extra} ${order} limit ${limit} offset ${offset}`;
  const upTo = offset + limit;
  return sql`select ${columns} from projects where id in (
      (select id from projects where owner_id = ${parts.userId} ${conditions.filters} ${extra} ${order} limit ${upTo})
      union
      (select id from projects where id = any(${parts.memberOf}::int[]) ${conditions.filters} ${extra} ${order} limit ${upTo})
    ) ${order} limit ${limit} offset ${offset}`;
}

/** The order of a list, by `filter.orderBy` then id, both in `direction`. */
const listOrder = (sql: Db, orderBy: ProjectOrder, direction: 'asc' | 'desc', table: string): Fragment =>
  // The order column comes from a closed set (the ProjectOrder enum), never from the caller's text.
  sql`order by ${sql(`${table}.${orderBy}`)} ${direction === 'asc' ? sql`asc` : sql`desc`}, ${sql(`${table}.id`)} ${
    direction === 'asc' ? sql`asc` : sql`desc`
  }`;

/** How much of each row a list reads: all of it, or ids and revisions (RevisionRow). */
export type ListShape = 'shown' | 'revisions';

export async function listProjects(
  sql: Db,
  filter: ListFilter,
  window: PageWindow,
  shape: ListShape = 'shown',
): Promise<{ rows: ShownProjectRow[] | RevisionRow[]; total: number }> {
  const conditions = listConditions(sql, filter);
  const order = (table: string) => listOrder(sql, filter.orderBy, filter.sort, table);
  const page = pageRows(sql, conditions, sql``, order('projects'), window.perPage, window.offset);
  const [rows, total] = await Promise.all([
    shape === 'revisions' ? selectRevisions(sql, page, order('p')) : selectShown(sql, page, order('p')),
    countProjects(sql, filter),
  ]);
  return { rows, total };
}

/** How many projects a list holds: from the counters when it has no filter beyond archived. */
export function countProjects(sql: Db, filter: ListFilter): Promise<number> {
  if (filter.search || filter.nameContains || filter.namespaceId !== undefined)
    return sql<
      { count: number }[]
    >`select count(*)::int as count from projects ${listConditions(sql, filter).where}`.then(([row]) => row.count);
  return countAudience(sql, filter.audience, filter.archived);
}

/** The Postgres type of each order column, for comparing a cursor's text with it. */
const ORDER_COLUMN_TYPES: Record<ProjectOrder, KeysetColumn['type']> = {
  id: 'int',
  name: 'text',
  path: 'text',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  last_activity_at: 'timestamptz',
};

/** A shown row with its place in the list's order (the order column and the id, as Postgres prints them). */
export type KeyedProjectRow = ShownProjectRow & { sortKey: string[] };

/**
 * A keyset page of a list (common/connections.ts): rows strictly between the window's cursors,
 * the first or last `limit + 1` of them in the list's order, and whether rows exist on the other
 * side of the cursor the caller came from.
 */
export async function listProjectsKeyset(
  sql: Db,
  filter: ListFilter,
  window: KeysetWindow,
): Promise<{ rows: KeyedProjectRow[]; beyond: boolean }> {
  const conditions = listConditions(sql, filter);
  const columns: KeysetColumn[] =
    filter.orderBy === 'id'
      ? [{ name: 'id', type: 'int' }]
      : [
          { name: filter.orderBy, type: ORDER_COLUMN_TYPES[filter.orderBy] },
          { name: 'id', type: 'int' },
        ];
  const keyset = keysetSql(sql, columns, filter.sort, window);
  const [found, beyond] = await Promise.all([
    selectShown(
      sql,
      pageRows(
        sql,
        conditions,
        keyset.bounds,
        keyset.order('projects'),
        keyset.limit,
        0,
        sql`*, ${keyset.sortKey}` as Fragment,
      ),
      keyset.order('p'),
    ),
    keyset.probe
      ? sql`select exists(${pageRows(sql, conditions, keyset.probe, sql``, 1, 0, sql`1` as Fragment)}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(found as KeyedProjectRow[]), beyond };
}

/**
 * The size of an unfiltered list from the counters (project_counts), so the total costs the same
 * whatever the number of projects; only the member projects the viewer does not own are counted
 * row by row. The audience is split into disjoint parts so nothing is counted twice.
 */
async function countAudience(sql: Db, audience: ListAudience, archived: boolean | null | undefined): Promise<number> {
  const archivedIs = () => (archived === undefined || archived === null ? sql`` : sql`and archived = ${archived}`);
  const counter = (ownerId: number, visibility: ReturnType<typeof sql>) =>
    sql`(select coalesce(sum(count), 0) from project_counts where owner_id = ${ownerId} ${visibility} ${archivedIs()})`;
  const memberRows = (userId: number, memberOf: number[], visibility: ReturnType<typeof sql>) =>
    sql`(select count(*) from projects where id = any(${memberOf}::int[]) and owner_id is distinct from ${userId} ${visibility} ${archivedIs()})`;
  const parts =
    audience.kind === 'all'
      ? [counter(-1, sql``)]
      : audience.kind === 'owner'
        ? [counter(audience.userId, sql``)]
        : audience.kind === 'member'
          ? [counter(audience.userId, sql``), memberRows(audience.userId, audience.memberOf, sql``)]
          : // visible: every internal and public project, then the viewer's private ones, own or member.
            [
              counter(-1, sql`and visibility_level >= 10`),
              counter(audience.userId, sql`and visibility_level < 10`),
              memberRows(audience.userId, audience.memberOf, sql`and visibility_level < 10`),
            ];
  const [{ total }] = await sql<
    { total: number }[]
  >`select (${parts.reduce((sum, part) => sql`${sum} + ${part}`)})::int as total`;
  return total;
}
