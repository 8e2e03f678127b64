import { containsPattern, idOrderedList, type Sql, type TransactionSql } from '@hub/common';

export interface NamespaceRow {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  description: string;
  ownerId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

/** A user's namespace carries the username as both name and path, as GitLab's did. */
export async function insertUserNamespace(
  tx: TransactionSql,
  user: { id: number; username: string },
): Promise<NamespaceRow> {
  const [row] = await tx<NamespaceRow[]>`
    insert into namespaces (name, path, kind, owner_id) values (${user.username}, ${user.username}, 'user', ${user.id})
    returning *`;
  return row;
}

export async function renameUserNamespace(tx: TransactionSql, ownerId: number, username: string): Promise<void> {
  await tx`update namespaces set name = ${username}, path = ${username}, updated_at = now()
    where owner_id = ${ownerId} and kind = 'user'`;
}

export async function findNamespacesByIds(sql: Db, ids: readonly number[]): Promise<NamespaceRow[]> {
  return sql<NamespaceRow[]>`select * from namespaces where id in ${sql(ids as number[])}`;
}

export async function findUserNamespaces(sql: Db, ownerIds: readonly number[]): Promise<NamespaceRow[]> {
  return sql<NamespaceRow[]>`select * from namespaces where kind = 'user' and owner_id in ${sql(ownerIds as number[])}`;
}

/**
 * Which namespaces a list holds: every one when `of` is null (admins), else the user's own and
 * the groups in `groupIds` (GitLab's User#namespaces); `kind` narrows to groups; `search` matches
 * name or path.
 */
export interface NamespaceFilter {
  of: { ownerId: number; groupIds: readonly number[] } | null;
  kind?: 'group';
  search?: string | null;
}

/** A namespace list's conditions (`where ...`). */
function namespaceConditions(sql: Db, filter: NamespaceFilter) {
  const pattern = filter.search ? containsPattern(filter.search) : null;
  const of = filter.of;
  return sql`
    where true
    ${filter.kind ? sql`and kind = ${filter.kind}` : sql``}
    ${of ? sql`and (owner_id = ${of.ownerId} or (kind = 'group' and id = any(${of.groupIds as number[]}::int[])))` : sql``}
    ${pattern ? sql`and (name ilike ${pattern} or path ilike ${pattern})` : sql``}`;
}

/** The ordering a namespace list's cursors are made for (v3's, by id ascending); groups are a list of their own. */
export const namespaceOrdering = (filter: Pick<NamespaceFilter, 'kind'>) =>
  filter.kind === 'group' ? 'groups:id:asc' : 'namespaces:id:asc';

const namespaceList = idOrderedList<NamespaceRow, NamespaceFilter>('namespaces', namespaceConditions);
/** A page of namespaces by number (v3's page and per_page), by id ascending, and how many there are. */
export const listNamespaces = namespaceList.page;
export const countNamespaces = namespaceList.count;
/** A keyset page of a namespace list (common/connections.ts), and whether rows lie past the caller's cursor. */
export const listNamespacesKeyset = namespaceList.keyset;

export async function insertGroupNamespace(
  tx: TransactionSql,
  group: { name: string; path: string; description: string },
): Promise<NamespaceRow> {
  const [row] = await tx<NamespaceRow[]>`
    insert into namespaces (name, path, kind, description) values (${group.name}, ${group.path}, 'group', ${group.description})
    returning *`;
  return row;
}

export async function deleteGroupNamespace(tx: TransactionSql, id: number): Promise<NamespaceRow | undefined> {
  const [row] = await tx<NamespaceRow[]>`delete from namespaces where id = ${id} and kind = 'group' returning *`;
  return row;
}

/** A group by id, else by path (case-insensitive), as GitLab's find_group looked it up. */
export async function findGroup(
  sql: Db,
  key: { id?: number | null; path?: string | null },
): Promise<NamespaceRow | undefined> {
  if (key.id !== undefined && key.id !== null) {
    const [byId] = await sql<NamespaceRow[]>`select * from namespaces where kind = 'group' and id = ${key.id}`;
    if (byId) return byId;
  }
  if (!key.path) return undefined;
  const [byPath] = await sql<
    NamespaceRow[]
  >`select * from namespaces where kind = 'group' and lower(path) = lower(${key.path})`;
  return byPath;
}

/** Which of a name and a path another namespace already has (a group's name is unique among groups, its path among all namespaces). */
export async function takenByNamespaces(
  sql: Db,
  name: string,
  path: string,
): Promise<{ name: boolean; path: boolean }> {
  const [row] = await sql<{ name: boolean; path: boolean }[]>`
    select exists (select 1 from namespaces where kind = 'group' and lower(name) = lower(${name})) as name,
      exists (select 1 from namespaces where lower(path) = lower(${path})) as path`;
  return row;
}
