import type { PageWindow, Sql, TransactionSql } from '@hub/common';

/** A row of projects.project_events, camelCased. */
export interface EventRow {
  id: number;
  projectId: number;
  actionName: string;
  title: string | null;
  targetId: number | null;
  targetType: string | null;
  targetTitle: string | null;
  authorId: number;
  authorUsername: string;
  data: unknown;
  createdAt: Date;
}

export type EventInsert = Omit<EventRow, 'id'>;

/** Records a feed entry unless the project is gone (an event may outlive its project). */
export async function insertEvent(tx: TransactionSql, event: EventInsert): Promise<boolean> {
  const rows = await tx`
    insert into project_events (project_id, action_name, title, target_id, target_type, target_title, author_id, author_username, data, created_at)
    select ${event.projectId}, ${event.actionName}, ${event.title}, ${event.targetId}, ${event.targetType}, ${event.targetTitle},
      ${event.authorId}, ${event.authorUsername}, ${event.data === null ? null : tx.json(event.data as never)}, ${event.createdAt}
    where exists (select 1 from projects where id = ${event.projectId})
    returning id`;
  return rows.length > 0;
}

export async function listEvents(
  sql: Sql,
  projectId: number,
  window: PageWindow,
): Promise<{ rows: EventRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    sql<EventRow[]>`select * from project_events where project_id = ${projectId}
      order by id desc limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from project_events where project_id = ${projectId}`,
  ]);
  return { rows, total: count };
}
