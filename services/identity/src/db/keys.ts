import {
  keysetSql,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

/** A row of identity.keys: a user's SSH key (kind user) or a deploy key (kind deploy, no user). */
export interface KeyRow {
  id: number;
  kind: 'user' | 'deploy';
  userId: number | null;
  title: string;
  key: string;
  fingerprint: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A project as the gateway hands it over to this subgraph's Project fields. */
export interface ProjectRef {
  id: number;
}

type Db = Sql | TransactionSql;

/** Which keys a list holds: a user's own keys, or the deploy keys a project uses. */
export type KeyList = { userId: number } | { projectId: number };

/** The list's rows as a table named keys, for keyset pages (a deploy key's link row is left out). */
const keysOf = (sql: Db, list: KeyList) =>
  'userId' in list
    ? sql`(select * from keys where kind = 'user' and user_id = ${list.userId}) keys`
    : sql`(select k.* from keys k join deploy_keys_projects l on l.deploy_key_id = k.id where l.project_id = ${list.projectId}) keys`;

/** The ordering a key list's cursors are made for: v3's, newest first (the id breaks ties). */
export const keyOrdering = (list: KeyList) =>
  'userId' in list ? 'keys:created_at:desc' : 'deploy-keys:created_at:desc';
const KEY_ORDER_COLUMNS: KeysetColumn[] = [
  { name: 'created_at', type: 'timestamptz' },
  { name: 'id', type: 'int' },
];

/** A page of a key list by number (v3's page and per_page), newest first, as GitLab's Sortable default scope listed keys. */
export async function listKeys(sql: Db, list: KeyList, window: PageWindow): Promise<{ rows: KeyRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    'userId' in list
      ? sql<KeyRow[]>`
          select * from keys where kind = 'user' and user_id = ${list.userId}
          order by created_at desc, id desc limit ${window.perPage} offset ${window.offset}`
      : sql<KeyRow[]>`
          select k.* from keys k join deploy_keys_projects l on l.deploy_key_id = k.id
          where l.project_id = ${list.projectId}
          order by k.created_at desc, k.id desc limit ${window.perPage} offset ${window.offset}`,
    countKeys(sql, list),
  ]);
  return { rows, total };
}

export async function countKeys(sql: Db, list: KeyList): Promise<number> {
  const [{ count }] =
    'userId' in list
      ? await sql<{ count: number }[]>`
          select count(*)::int as count from keys where kind = 'user' and user_id = ${list.userId}`
      : await sql<{ count: number }[]>`
          select count(*)::int as count from deploy_keys_projects where project_id = ${list.projectId}`;
  return count;
}

/** A keyset page of a key list (common/connections.ts), and whether rows lie past the caller's cursor. */
export async function listKeysKeyset(
  sql: Db,
  list: KeyList,
  window: KeysetWindow,
): Promise<{ rows: Array<KeyRow & { sortKey: string[] }>; beyond: boolean }> {
  const keyset = keysetSql(sql, KEY_ORDER_COLUMNS, 'desc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<KeyRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from ${keysOf(sql, list)} where true ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from ${keysOf(sql, list)} where true ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

export async function findKeyById(sql: Db, id: number): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow[]>`select * from keys where id = ${id}`;
  return row;
}

/** The projects a deploy key is added to. */
export async function deployKeyProjectIds(sql: Db, keyId: number): Promise<number[]> {
  const rows = await sql<
    { projectId: number }[]
  >`select project_id from deploy_keys_projects where deploy_key_id = ${keyId}`;
  return rows.map((row) => row.projectId);
}

export async function findUserKey(sql: Db, userId: number, id: number): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow[]>`select * from keys where id = ${id} and kind = 'user' and user_id = ${userId}`;
  return row;
}

export async function deleteUserKey(sql: Db, userId: number, id: number): Promise<KeyRow | undefined> {
  const [row] = await sql<
    KeyRow[]
  >`delete from keys where id = ${id} and kind = 'user' and user_id = ${userId} returning *`;
  return row;
}

export async function insertKey(
  sql: Db,
  values: Pick<KeyRow, 'kind' | 'userId' | 'title' | 'key' | 'fingerprint'>,
): Promise<KeyRow> {
  const [row] = await sql<KeyRow[]>`insert into keys ${sql(values)} returning *`;
  return row;
}

/** GitLab's two uniqueness validations: another key (of either kind) with this text, or this fingerprint. */
export async function keyTaken(
  sql: Db,
  key: string | null,
  fingerprint: string | null,
): Promise<{ key: boolean; fingerprint: boolean }> {
  if (fingerprint === null) return { key: false, fingerprint: false };
  // A stored key's text always parses, so a text without a fingerprint matches no stored key.
  const [row] = await sql<{ key: boolean }[]>`select key = ${key} as key from keys where fingerprint = ${fingerprint}`;
  return { key: row?.key ?? false, fingerprint: row !== undefined };
}

export async function findProjectDeployKey(sql: Db, projectId: number, id: number): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow[]>`
    select k.* from keys k join deploy_keys_projects l on l.deploy_key_id = k.id
    where l.project_id = ${projectId} and k.id = ${id}`;
  return row;
}

/** The deploy key with exactly this text, with the projects that use it. */
export async function findDeployKeyByText(
  sql: Db,
  key: string,
  fingerprint: string,
): Promise<{ row: KeyRow; projectIds: number[] } | undefined> {
  const [row] = await sql<
    KeyRow[]
  >`select * from keys where fingerprint = ${fingerprint} and key = ${key} and kind = 'deploy'`;
  if (!row) return undefined;
  const links = await sql<
    { projectId: number }[]
  >`select project_id from deploy_keys_projects where deploy_key_id = ${row.id} order by project_id`;
  return { row, projectIds: links.map((link) => link.projectId) };
}

/** Locks a key until the transaction ends, so it cannot be removed as orphaned (or linked) meanwhile. */
export async function lockKey(tx: TransactionSql, id: number): Promise<KeyRow | undefined> {
  const [row] = await tx<KeyRow[]>`select * from keys where id = ${id} for update`;
  return row;
}

export async function linkDeployKey(tx: TransactionSql, projectId: number, keyId: number): Promise<void> {
  await tx`insert into deploy_keys_projects ${tx({ projectId, deployKeyId: keyId })} on conflict do nothing`;
}

/** Whether the project had the key. */
export async function unlinkDeployKey(tx: TransactionSql, projectId: number, keyId: number): Promise<boolean> {
  return (
    (await tx`delete from deploy_keys_projects where project_id = ${projectId} and deploy_key_id = ${keyId}`).count > 0
  );
}

/** Deletes the deploy keys among `ids` that no project uses any more; returns them. */
export async function deleteOrphanedDeployKeys(tx: TransactionSql, ids: number[]): Promise<KeyRow[]> {
  if (ids.length === 0) return [];
  return tx<KeyRow[]>`
    delete from keys k where k.id in ${tx(ids)} and k.kind = 'deploy'
    and not exists (select 1 from deploy_keys_projects l where l.deploy_key_id = k.id)
    returning *`;
}

/** A deleted project's keys: its links go, and the keys no other project uses (returned). */
export async function removeProjectDeployKeys(tx: TransactionSql, projectId: number): Promise<KeyRow[]> {
  // Locked first, in id order, as adding a key to a project locks it.
  const linked = await tx<{ id: number }[]>`
    select k.id from keys k join deploy_keys_projects l on l.deploy_key_id = k.id
    where l.project_id = ${projectId} order by k.id for update of k`;
  const ids = linked.map((row) => row.id);
  if (ids.length === 0) return [];
  await tx`delete from deploy_keys_projects where project_id = ${projectId}`;
  return deleteOrphanedDeployKeys(tx, ids);
}
