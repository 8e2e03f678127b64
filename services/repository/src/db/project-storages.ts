import type { Sql } from '@hub/common';

/** Records the shard projects placed a project's repository on; a redelivered event changes nothing. */
export async function recordStorage(sql: Sql, projectId: number, storage: string): Promise<void> {
  await sql`insert into project_storages (project_id, storage) values (${projectId}, ${storage}) on conflict (project_id) do nothing`;
}

/** The shard of a project's repository, or null when none was recorded. */
export async function storageOf(sql: Sql, projectId: number): Promise<string | null> {
  const [row] = await sql<{ storage: string }[]>`select storage from project_storages where project_id = ${projectId}`;
  return row?.storage ?? null;
}

export async function forgetStorage(sql: Sql, projectId: number): Promise<void> {
  await sql`delete from project_storages where project_id = ${projectId}`;
}
