import { containsPattern, type PageWindow, type Sql, type TransactionSql } from '@hub/common';

export interface NamespaceRow {
  id: number;
  name: string;
  path: string;
  kind: 'user';
  description: string;
  ownerId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

/** A user's namespace carries the username as both name and path, as GitLab's did. */
export async function insertUserNamespace(tx: TransactionSql, user: { id: number; username: string }): Promise<NamespaceRow> {
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

export async function listNamespaces(
  sql: Db,
  filter: { ownerId: number | null; search?: string | null },
  window: PageWindow,
): Promise<{ rows: NamespaceRow[]; total: number }> {
  const pattern = filter.search ? containsPattern(filter.search) : null;
  const where = sql`
    where true
    ${filter.ownerId !== null ? sql`and owner_id = ${filter.ownerId}` : sql``}
    ${pattern ? sql`and (name ilike ${pattern} or path ilike ${pattern})` : sql``}`;
  const [rows, [{ count }]] = await Promise.all([
    sql<NamespaceRow[]>`select * from namespaces ${where} order by id limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from namespaces ${where}`,
  ]);
  return { rows, total: count };
}
