import type { Sql, TransactionSql } from './db';
import { notFound } from './errors';

/*
 * A service that keeps rows of projects (issues, hooks, merge requests, ...) learns of a project's
 * deletion through the project.deleted event, while writes authorized just before it may still be
 * running, and its access cache may answer for the project a moment longer. Such a write, committed
 * after the cleanup, would leave a row of a deleted project behind for good.
 *
 * So writes hold a shared lock on the project for their transaction and check for a tombstone; the
 * cleanup takes the lock exclusively, leaves the tombstone and deletes. The cleanup waits for the
 * writes in flight, whose rows it then deletes; a write after it finds the tombstone and answers as
 * for a project that does not exist. The lock is per schema: one service's cleanup never waits on
 * another's writes.
 */

const lock = (tx: TransactionSql, projectId: number, mode: 'shared' | 'exclusive') =>
  mode === 'shared'
    ? tx`select pg_advisory_xact_lock_shared(hashtext(current_schema()), ${projectId}::int)`
    : tx`select pg_advisory_xact_lock(hashtext(current_schema()), ${projectId}::int)`;

/** In a write's transaction, before it writes: whether the project still stands (false once its deletion is known). */
export async function holdProject(tx: TransactionSql, projectId: number): Promise<boolean> {
  await lock(tx, projectId, 'shared');
  const [gone] = await tx`select 1 from deleted_projects where project_id = ${projectId}`;
  return !gone;
}

/** holdProject for a request's write: 404 Project Not Found, as for any project that does not exist. */
export async function guardProjectWrite(tx: TransactionSql, projectId: number): Promise<void> {
  if (!(await holdProject(tx, projectId))) throw notFound('Project');
}

/**
 * A project's deletion: the tombstone, then `cleanup` deleting its rows, in one transaction after
 * every write in flight on the project has committed or rolled back. Idempotent (events come at
 * least once).
 */
export async function buryProject(
  sql: Sql,
  projectId: number,
  cleanup: (tx: TransactionSql) => Promise<unknown>,
): Promise<void> {
  await sql.begin(async (tx) => {
    await lock(tx, projectId, 'exclusive');
    await tx`insert into deleted_projects (project_id) values (${projectId}) on conflict do nothing`;
    await cleanup(tx);
  });
}
