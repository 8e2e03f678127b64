import type { PageWindow, Sql, TransactionSql } from '@hub/common';

/** A row of notes.notes, camelCased. */
export interface NoteRow {
  id: number;
  projectId: number;
  noteableType: 'Issue' | 'Snippet' | 'MergeRequest' | 'Commit';
  /** Null for a comment on a commit, which commitId names instead. */
  noteableId: number | null;
  commitId: string | null;
  /** Where in a commit's diff a commit comment points, when it does. */
  path: string | null;
  line: number | null;
  lineType: 'new' | 'old' | null;
  authorId: number;
  body: string;
  system: boolean;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;
/** An issue, snippet or merge request of a project: what notes are on, but for commits. */
export type Noteable = { projectId: number; noteableType: Exclude<NoteRow['noteableType'], 'Commit'>; noteableId: number };
/** What a new note is made of. */
export type NewNote = Pick<NoteRow, 'projectId' | 'noteableType' | 'noteableId' | 'authorId' | 'body' | 'system'> & Partial<Pick<NoteRow, 'commitId' | 'path' | 'line' | 'lineType'>>;

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

/** The comments on one commit of a project, oldest first. */
export async function listCommitNotes(sql: Db, projectId: number, commitId: string, window: PageWindow): Promise<{ rows: NoteRow[]; total: number }> {
  const where = sql`where project_id = ${projectId} and commit_id = ${commitId}`;
  const [rows, [{ count }]] = await Promise.all([
    sql<NoteRow[]>`select * from notes ${where} order by id limit ${window.perPage} offset ${window.offset}`,
    sql<{ count: number }[]>`select count(*)::int as count from notes ${where}`,
  ]);
  return { rows, total: count };
}

export async function insertNote(tx: TransactionSql, values: NewNote): Promise<NoteRow> {
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
