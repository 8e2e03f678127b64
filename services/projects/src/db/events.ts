import {
  keysetSql,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

/** A row of projects.project_events, camelCased. */
export interface EventRow {
  /** A bigserial: postgres.js reads int8 as text (it may pass 2^53; feeds stay far below). */
  id: string;
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

/**
 * Records a feed entry unless the project is gone (an event may outlive its project): the new
 * entry's id, or null when nothing was recorded.
 */
export async function insertEvent(tx: TransactionSql, event: EventInsert): Promise<number | null> {
  const rows = await tx<Pick<EventRow, 'id'>[]>`
    insert into project_events (project_id, action_name, title, target_id, target_type, target_title, author_id, author_username, data, created_at)
    select ${event.projectId}, ${event.actionName}, ${event.title}, ${event.targetId}, ${event.targetType}, ${event.targetTitle},
      ${event.authorId}, ${event.authorUsername}, ${event.data === null ? null : tx.json(event.data as never)}, ${event.createdAt}
    where exists (select 1 from projects where id = ${event.projectId})
    returning id`;
  return rows.length > 0 ? Number(rows[0]!.id) : null;
}

/** Feed entries by id, whatever their project (node(id:) names them so); missing ones are left out. */
export async function findEventsByIds(sql: Sql, ids: readonly number[]): Promise<EventRow[]> {
  return sql<EventRow[]>`select * from project_events where id = any(${ids as number[]}::bigint[])`;
}

/** A project's feed by v3's page numbers: newest (largest id) first. */
export async function listEvents(
  sql: Sql,
  projectId: number,
  window: PageWindow,
): Promise<{ rows: EventRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<EventRow[]>`select * from project_events where project_id = ${projectId}
      order by id desc limit ${window.perPage} offset ${window.offset}`,
    countEvents(sql, projectId),
  ]);
  return { rows, total };
}

export async function countEvents(sql: Sql, projectId: number): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from project_events where project_id = ${projectId}`;
  return count;
}

/**
 * The feed's order: the id alone (unique), largest first (a bigserial, which keysetSql reads back as bigint).
 */
const EVENT_ORDER: KeysetColumn[] = [{ name: 'id', type: 'int' }];

/** The ordering a project's feed cursors are made for (one project's feed: another's cursor is refused). */
export const eventOrdering = (projectId: number) => `project-events:${projectId}:id:desc`;

/** A keyset page of a project's feed (common/connections.ts), and whether events lie past the caller's cursor. */
export async function listEventsKeyset(
  sql: Sql,
  projectId: number,
  window: KeysetWindow,
): Promise<{ rows: Array<EventRow & { sortKey: string[] }>; beyond: boolean }> {
  const keyset = keysetSql(sql, EVENT_ORDER, 'desc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<EventRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from project_events where project_id = ${projectId} ${keyset.bounds}
      ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from project_events where project_id = ${projectId} ${keyset.probe}) as found`.then(
          ([row]) => row.found as boolean,
        )
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}
