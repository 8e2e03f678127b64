import { keysetPageById, type KeysetWindow, type PageWindow, type Sql, type TransactionSql } from '@hub/common';

export interface HookRow {
  id: number;
  kind: 'project';
  projectId: number;
  url: string;
  pushEvents: boolean;
  tagPushEvents: boolean;
  issuesEvents: boolean;
  mergeRequestsEvents: boolean;
  noteEvents: boolean;
  token: string | null;
  signingSecret: string;
  consecutiveFailures: number;
  pauses: number;
  pausedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A system hook: a row of the same table with no project. It receives every system event; the
 * event flags (left at their defaults) and the token (never set) do not apply to it.
 */
export type SystemHookRow = Omit<HookRow, 'kind' | 'projectId'> & { kind: 'system'; projectId: null };

/** The event flags, by their column names. */
export type EventFlag = 'pushEvents' | 'tagPushEvents' | 'issuesEvents' | 'mergeRequestsEvents' | 'noteEvents';

export type HookSettings = Pick<HookRow, 'url' | 'token' | EventFlag>;

type Db = Sql | TransactionSql;

/** A project's hooks by v3's page numbers: oldest (smallest id) first. */
export async function listHooks(
  sql: Db,
  projectId: number,
  window: PageWindow,
): Promise<{ rows: HookRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      HookRow[]
    >`select * from hooks where project_id = ${projectId} order by id limit ${window.perPage} offset ${window.offset}`,
    countHooks(sql, projectId),
  ]);
  return { rows, total };
}

export async function countHooks(sql: Db, projectId: number): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from hooks where project_id = ${projectId}`;
  return count;
}

/** A keyset page of a project's hooks, in listHooks' order. */
export function listHooksKeyset(sql: Db, projectId: number, window: KeysetWindow) {
  return keysetPageById<HookRow>(sql, 'hooks', sql`where project_id = ${projectId}`, 'asc', window);
}

export async function findHook(sql: Db, projectId: number, id: number): Promise<HookRow | undefined> {
  const [row] = await sql<HookRow[]>`select * from hooks where id = ${id} and project_id = ${projectId}`;
  return row;
}

/** The hooks of a project that want events of this kind. */
export async function hooksFor(sql: Db, projectId: number, flag: EventFlag): Promise<HookRow[]> {
  return sql<HookRow[]>`select * from hooks where project_id = ${projectId} and ${sql(flag)} order by id`;
}

export async function insertHook(
  sql: Db,
  values: HookSettings & { projectId: number; signingSecret: string },
): Promise<HookRow> {
  const [row] = await sql<HookRow[]>`insert into hooks ${sql(values)} returning *`;
  return row;
}

/** The updated hook, or undefined when it is gone (deleted since it was read). */
export async function updateHook(sql: Db, id: number, changes: Partial<HookSettings>): Promise<HookRow | undefined> {
  const [row] = await sql<
    HookRow[]
  >`update hooks set ${sql({ ...changes, updatedAt: new Date() })} where id = ${id} returning *`;
  return row;
}

export async function deleteHook(sql: Db, projectId: number, id: number): Promise<HookRow | undefined> {
  const [row] = await sql<HookRow[]>`delete from hooks where id = ${id} and project_id = ${projectId} returning *`;
  return row;
}

export async function deleteProjectHooks(sql: Db, projectId: number): Promise<number> {
  return (await sql`delete from hooks where project_id = ${projectId}`).count;
}

/** A success ends any failure streak and pause. */
export async function recordHookSuccess(sql: Db, id: number): Promise<void> {
  await sql`update hooks set consecutive_failures = 0, pauses = 0, paused_until = null where id = ${id}`;
}

/**
 * Counts a failed attempt; once `pauseAfter` failed in a row, pauses the hook for
 * `pauseBaseMs × 2^(pauses so far)` (at most a day). Returns the pause end, if any.
 */
export async function recordHookFailure(
  sql: Db,
  id: number,
  pauseAfter: number,
  pauseBaseMs: number,
): Promise<Date | null> {
  const [row] = await sql<{ pausedUntil: Date | null }[]>`
    update hooks set
      consecutive_failures = consecutive_failures + 1,
      pauses = case when consecutive_failures + 1 >= ${pauseAfter} then pauses + 1 else pauses end,
      paused_until = case when consecutive_failures + 1 >= ${pauseAfter}
        then now() + least(${pauseBaseMs}::bigint * (2 ^ least(pauses, 20))::bigint, 86400000) * interval '1 millisecond'
        else paused_until end
    where id = ${id}
    returning paused_until`;
  return row?.pausedUntil ?? null;
}

/** The system hooks by v3's page numbers: oldest (smallest id) first. */
export async function listSystemHooks(sql: Db, window: PageWindow): Promise<{ rows: SystemHookRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      SystemHookRow[]
    >`select * from hooks where kind = 'system' order by id limit ${window.perPage} offset ${window.offset}`,
    countSystemHooks(sql),
  ]);
  return { rows, total };
}

export async function countSystemHooks(sql: Db): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from hooks where kind = 'system'`;
  return count;
}

/** A keyset page of the system hooks, in listSystemHooks' order. */
export function listSystemHooksKeyset(sql: Db, window: KeysetWindow) {
  return keysetPageById<SystemHookRow>(sql, 'hooks', sql`where kind = 'system'`, 'asc', window);
}

/** Every system hook, by id (all a delivery needs): each system event goes to all of them. */
export async function allSystemHookIds(sql: Db): Promise<Array<Pick<SystemHookRow, 'id'>>> {
  return sql<Array<Pick<SystemHookRow, 'id'>>>`select id from hooks where kind = 'system' order by id`;
}

/** A project hook by its id alone (node(id:) names it so); undefined for a system hook. */
export async function findProjectHookById(sql: Db, id: number): Promise<HookRow | undefined> {
  const [row] = await sql<HookRow[]>`select * from hooks where id = ${id} and kind = 'project'`;
  return row;
}

export async function findSystemHook(sql: Db, id: number): Promise<SystemHookRow | undefined> {
  const [row] = await sql<SystemHookRow[]>`select * from hooks where id = ${id} and kind = 'system'`;
  return row;
}

export async function insertSystemHook(
  sql: Db,
  values: { url: string; signingSecret: string },
): Promise<SystemHookRow> {
  const [row] = await sql<
    SystemHookRow[]
  >`insert into hooks ${sql({ ...values, kind: 'system', projectId: null })} returning *`;
  return row;
}

export async function deleteSystemHook(sql: Db, id: number): Promise<SystemHookRow | undefined> {
  const [row] = await sql<SystemHookRow[]>`delete from hooks where id = ${id} and kind = 'system' returning *`;
  return row;
}
