import type { PageWindow, Sql, TransactionSql } from '@hub/common';

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

const page = async (rows: Promise<KeyRow[]>, count: Promise<Array<{ count: number }>>) => {
  const [nodes, [{ count: total }]] = await Promise.all([rows, count]);
  return { rows: nodes, total };
};

/** Newest first, as GitLab's Sortable default scope listed keys. */
export function listUserKeys(sql: Db, userId: number, window: PageWindow) {
  return page(
    sql<KeyRow[]>`
      select * from keys where kind = 'user' and user_id = ${userId}
      order by created_at desc, id desc limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from keys where kind = 'user' and user_id = ${userId}`,
  );
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

export function listProjectDeployKeys(sql: Db, projectId: number, window: PageWindow) {
  return page(
    sql<KeyRow[]>`
      select k.* from keys k join deploy_keys_projects l on l.deploy_key_id = k.id
      where l.project_id = ${projectId}
      order by k.created_at desc, k.id desc limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from deploy_keys_projects where project_id = ${projectId}`,
  );
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
