import type { Sql, TransactionSql } from './db';

type Db = Sql | TransactionSql;

/**
 * The tables that keep label names in a `labels text[]` column, per project: notes' issues and
 * the merge requests service's merge requests. A name comes from these, never from a client.
 */
export type LabelledTable = 'issues' | 'merge_requests';

/** A label's new name on every row of the project that has it (names stay sorted and distinct). */
export async function renameLabelIn(
  sql: Db,
  table: LabelledTable,
  projectId: number,
  from: string,
  to: string,
): Promise<void> {
  await sql`
    update ${sql(table)} as t set labels = (
      select coalesce(array_agg(l order by l collate "C"), '{}') from (select distinct unnest(array_replace(t.labels, ${from}::text, ${to}::text)) as l) named
    )
    where project_id = ${projectId} and labels @> array[${from}::text]`;
}

/** A removed label leaves every row of the project (GitLab destroyed its label links). */
export async function removeLabelFrom(sql: Db, table: LabelledTable, projectId: number, title: string): Promise<void> {
  await sql`update ${sql(table)} set labels = array_remove(labels, ${title}::text) where project_id = ${projectId} and labels @> array[${title}::text]`;
}
