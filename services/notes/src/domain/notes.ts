import {
  authorize,
  can,
  forbidden,
  guardProjectWrite,
  holdProject,
  notesEvents,
  recordNotFound,
  type AccessClient,
  type Principal,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import * as db from '../db/notes';
import type { NewNote, Noteable, NoteRow } from '../db/notes';
import { noteAttributes, type NoteableAttributes } from '../event-attributes';

/** What a note is on: a project's issue, snippet or merge request, or a commit (by its id). */
export type NoteTarget = Pick<NewNote, 'projectId' | 'noteableType' | 'noteableId' | 'commitId'>;
/** Where in a commit's diff a commit comment points. */
export type DiffPosition = Pick<NewNote, 'path' | 'line' | 'lineType'>;

/**
 * Notes on anything: comments people write, edits by their author or a Master, and the system
 * notes state changes leave. Each kind's owner checks that the thing noted exists first.
 */
export function createNotes(deps: { sql: Sql; access: AccessClient }) {
  const { sql } = deps;

  const event = (
    tx: TransactionSql,
    type: 'note.created' | 'note.updated',
    principal: Principal | null,
    note: NoteRow,
    noteable: NoteableAttributes = null,
  ) =>
    notesEvents.record(tx, type, {
      project_id: note.projectId,
      actor_id: principal?.userId ?? note.authorId,
      actor_username: principal?.username ?? null,
      note_id: note.id,
      noteable_type: note.noteableType,
      noteable_id: note.noteableId,
      body: note.body,
      system: note.system,
      note: noteAttributes(note),
      noteable,
    });

  return {
    /** A comment; `noteable` is what the note's event shows of the thing commented on. */
    async create(
      principal: Principal,
      target: NoteTarget,
      body: string,
      noteable: NoteableAttributes,
      position: DiffPosition = {},
    ): Promise<NoteRow> {
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, target.projectId);
        const note = await db.insertNote(tx, {
          ...target,
          ...position,
          authorId: principal.userId!,
          body,
          system: false,
        });
        await event(tx, 'note.created', principal, note, noteable);
        return note;
      });
    },

    /** Its author, or Master and above (GitLab's admin_note). */
    async update(principal: Principal, target: Noteable, noteId: number, body: string): Promise<NoteRow> {
      const access = authorize(await deps.access.loader(principal).load(target.projectId), principal, 'read_project');
      const note = await db.findNote(sql, target, noteId);
      if (!note) throw recordNotFound();
      if (note.authorId !== principal.userId && !can(access, principal, 'admin_note')) throw forbidden();
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, target.projectId);
        const updated = await db.updateNoteBody(tx, note.id, body);
        await event(tx, 'note.updated', principal, updated);
        return updated;
      });
    },

    /** The note GitLab left on a state change ("Status changed to closed"), in the change's transaction. */
    async addSystemNote(
      tx: TransactionSql,
      target: Noteable,
      authorId: number,
      body: string,
      principal: Principal | null = null,
    ): Promise<void> {
      // A state change that reaches notes after its project's deletion leaves no note.
      if (!(await holdProject(tx, target.projectId))) return;
      const note = await db.insertNote(tx, { ...target, authorId, body, system: true });
      await event(tx, 'note.created', principal, note);
    },
  };
}

export type Notes = ReturnType<typeof createNotes>;
