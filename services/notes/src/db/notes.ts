import type { PageWindow, Sql, TransactionSql } from '@hub/common';

/** A row of notes.notes, camelCased. */
export interface NoteRow {
  id: number;
  projectId: number;
  noteableType: 'Issue' | 'Snippet' | 'MergeRequest';
  noteableId: number;
  authorId: number;
  body: string;
  system: boolean;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;
type Noteable = Pick<NoteRow, 'projectId' | 'noteableType' | 'noteableId'>;

export const UPVOTES = ['+1', ':+1:'];
export const DOWNVOTES = ['-1', ':-1:'];

export async function listNotes(sql: Db, target: Noteable, window: PageWindow): Promise<{ rows: NoteRow[]; total: number }> {
  const where = sql`where project_id = ${target.projectId} and noteable_type = ${target.noteableType} and noteable_id = ${target.noteableId}`;
  const [rows, [{ count }]] = await Promise.all([
    sql<NoteRow[]>`select * from notes ${where} order by id limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from notes ${where}`,
  ]);
  return { rows, total: count };
}

export async function findNote(sql: Db, target: Noteable, id: number): Promise<NoteRow | undefined> {
  const [row] = await sql<NoteRow[]>`
    select * from notes where id = ${id} and project_id = ${target.projectId}
      and noteable_type = ${target.noteableType} and noteable_id = ${target.noteableId}`;
  return row;
}

export async function insertNote(tx: TransactionSql, values: Omit<NoteRow, 'id' | 'createdAt' | 'updatedAt'>): Promise<NoteRow> {
  const [row] = await tx<NoteRow[]>`insert into notes ${tx(values as never)} returning *`;
  return row;
}

export async function updateNoteBody(tx: TransactionSql, id: number, body: string): Promise<NoteRow> {
  const [row] = await tx<NoteRow[]>`update notes set body = ${body}, updated_at = now() where id = ${id} returning *`;
  return row;
}

/** Up and down votes of many noteables of one kind, in one query. */
export async function countVotes(sql: Db, noteableType: string, ids: readonly number[]): Promise<Map<number, { up: number; down: number }>> {
  const rows = await sql<{ noteableId: number; up: number; down: number }[]>`
    select noteable_id,
      count(*) filter (where trim(body) in ${sql(UPVOTES)})::int as up,
      count(*) filter (where trim(body) in ${sql(DOWNVOTES)})::int as down
    from notes where noteable_type = ${noteableType} and noteable_id in ${sql(ids as number[])} and not system
    group by noteable_id`;
  return new Map(rows.map((r) => [r.noteableId, { up: r.up, down: r.down }]));
}

export async function deleteProjectNotes(sql: Sql, projectId: number): Promise<void> {
  await sql`delete from notes where project_id = ${projectId}`;
}
