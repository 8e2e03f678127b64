import {
  keysetSql,
  type KeysetColumn,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';

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

export async function findNotesById(sql: Db, ids: readonly number[]): Promise<NoteRow[]> {
  return sql<NoteRow[]>`select * from notes where id = any(${ids as number[]}::int[])`;
}
/** An issue, snippet or merge request of a project: what notes are on, but for commits. */
export type Noteable = {
  projectId: number;
  noteableType: Exclude<NoteRow['noteableType'], 'Commit'>;
  noteableId: number;
};
/** What a new note is made of. */
export type NewNote = Pick<NoteRow, 'projectId' | 'noteableType' | 'noteableId' | 'authorId' | 'body' | 'system'> &
  Partial<Pick<NoteRow, 'commitId' | 'path' | 'line' | 'lineType'>>;

/** GitLab 7.14's votes: a note on an issue or merge request whose body starts with one of these. */
export const UPVOTES = ['+1', ':+1:', ':thumbsup:', ':thumbs_up_sign:'];
export const DOWNVOTES = ['-1', ':-1:', ':thumbsdown:', ':thumbs_down_sign:'];
export const isVotable = (noteableType: NoteRow['noteableType']) =>
  noteableType === 'Issue' || noteableType === 'MergeRequest';
const startsWithAny = (body: string, prefixes: string[]) => prefixes.some((prefix) => body.startsWith(prefix));
export const isUpvote = (note: Pick<NoteRow, 'noteableType' | 'body' | 'system'>) =>
  !note.system && isVotable(note.noteableType) && startsWithAny(note.body, UPVOTES);
export const isDownvote = (note: Pick<NoteRow, 'noteableType' | 'body' | 'system'>) =>
  !note.system && isVotable(note.noteableType) && startsWithAny(note.body, DOWNVOTES);

/** A list of notes: those on an issue, snippet or merge request, or the comments on one commit of a project. */
export type NoteList = Noteable | { projectId: number; commitId: string };

/** Which notes a list holds, as SQL conditions. */
function noteConditions(sql: Db, list: NoteList) {
  return 'commitId' in list
    ? sql`where project_id = ${list.projectId} and commit_id = ${list.commitId}`
    : sql`where project_id = ${list.projectId} and noteable_type = ${list.noteableType} and noteable_id = ${list.noteableId}`;
}

// Oldest first: a note takes its created_at (now()) and its id as it is inserted, so the id
// alone gives that order, and notes_noteable_idx / notes_commit_idx serve it.
const NOTE_ORDER: KeysetColumn[] = [{ name: 'id', type: 'int' }];

/** The ordering a note list's cursors are made for. */
export const NOTE_ORDERING = 'notes:id:asc';

/** A page of a note list by number (REST v3's page and per_page), oldest first. */
export async function listNotes(
  sql: Db,
  list: NoteList,
  window: PageWindow,
): Promise<{ rows: NoteRow[]; total: number }> {
  const where = noteConditions(sql, list);
  const [rows, total] = await Promise.all([
    sql<NoteRow[]>`select * from notes ${where} order by id limit ${window.perPage} offset ${window.offset}`,
    countNotes(sql, list),
  ]);
  return { rows, total };
}

export async function countNotes(sql: Db, list: NoteList): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from notes ${noteConditions(sql, list)}`;
  return count;
}

/** A keyset page of a note list (common/connections.ts), and whether rows lie past the caller's cursor. */
export async function listNotesKeyset(
  sql: Db,
  list: NoteList,
  window: KeysetWindow,
): Promise<{ rows: Array<NoteRow & { sortKey: string[] }>; beyond: boolean }> {
  const where = noteConditions(sql, list);
  const keyset = keysetSql(sql, NOTE_ORDER, 'asc', window);
  const [rows, beyond] = await Promise.all([
    sql<Array<NoteRow & { sortKey: string[] }>>`
      select *, ${keyset.sortKey} from notes ${where} ${keyset.bounds} ${keyset.order()} limit ${keyset.limit}`,
    keyset.probe
      ? sql`select exists(select 1 from notes ${where} ${keyset.probe}) as found`.then(([row]) => row.found as boolean)
      : Promise.resolve(false),
  ]);
  return { rows: keyset.inOrder(rows), beyond };
}

export async function findNote(sql: Db, target: Noteable, id: number): Promise<NoteRow | undefined> {
  const [row] = await sql<NoteRow[]>`
    select * from notes where id = ${id} and project_id = ${target.projectId}
      and noteable_type = ${target.noteableType} and noteable_id = ${target.noteableId}`;
  return row;
}

export async function insertNote(tx: TransactionSql, values: NewNote): Promise<NoteRow> {
  const [row] = await tx<NoteRow[]>`insert into notes ${tx(values as never)} returning *`;
  return row;
}

export async function updateNoteBody(tx: TransactionSql, id: number, body: string): Promise<NoteRow> {
  const [row] = await tx<NoteRow[]>`update notes set body = ${body}, updated_at = now() where id = ${id} returning *`;
  return row;
}

/**
 * Up and down votes of many issues or merge requests, in one query. As GitLab 7.14 counted them,
 * only each author's latest vote counts (a later vote supersedes an earlier one, either way).
 */
export async function countVotes(
  sql: Db,
  noteableType: 'Issue' | 'MergeRequest',
  ids: readonly number[],
): Promise<Map<number, { up: number; down: number }>> {
  const startsWith = (prefixes: string[]) =>
    sql`1 from unnest(${prefixes}::text[]) as p where left(body, length(p)) = p`;
  const rows = await sql<{ noteableId: number; up: number; down: number }[]>`
    select noteable_id, count(*) filter (where up)::int as up, count(*) filter (where not up)::int as down
    from (
      select distinct on (noteable_id, author_id) noteable_id, exists (select ${startsWith(UPVOTES)}) as up
      from notes
      where noteable_type = ${noteableType} and noteable_id in ${sql(ids as number[])} and not system
        and (exists (select ${startsWith(UPVOTES)}) or exists (select ${startsWith(DOWNVOTES)}))
      order by noteable_id, author_id, created_at desc, id desc
    ) latest
    group by noteable_id`;
  return new Map(rows.map((r) => [r.noteableId, { up: r.up, down: r.down }]));
}

export async function deleteProjectNotes(sql: Db, projectId: number): Promise<void> {
  await sql`delete from notes where project_id = ${projectId}`;
}
