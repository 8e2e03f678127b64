import {
  authorize,
  can,
  forbidden,
  MERGE_REQUEST_FIND_PATH,
  notFound,
  recordEvent,
  type AccessClient,
  type InternalClient,
  type MergeRequestFindRequest,
  type MergeRequestFindResponse,
  type Principal,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import * as db from './db/notes';
import type { NoteRow } from './db/notes';
import { SERVICE } from './env';

/** Notes on merge requests (issues and snippets come with their services). */
export function createNotesService(deps: { sql: Sql; access: AccessClient; mergeRequests: InternalClient }) {
  const { sql } = deps;
  const accessOf = (principal: Principal, projectId: number) => deps.access.loader(principal).load(projectId);

  async function requireMergeRequest(projectId: number, id: number) {
    const request: MergeRequestFindRequest = { projectId, id };
    const { found } = await deps.mergeRequests.post<MergeRequestFindResponse>(MERGE_REQUEST_FIND_PATH, request);
    if (!found) throw notFound();
  }

  const event = (tx: TransactionSql, type: string, principal: Principal | null, note: NoteRow) =>
    recordEvent(tx, SERVICE, {
      type,
      payload: {
        project_id: note.projectId,
        actor_id: principal?.userId ?? note.authorId,
        actor_username: principal?.username ?? null,
        note_id: note.id,
        noteable_type: note.noteableType,
        noteable_id: note.noteableId,
        body: note.body,
        system: note.system,
      },
    });

  return {
    async createMergeRequestNote(principal: Principal, projectId: number, mergeRequestId: number, body: string): Promise<NoteRow> {
      authorize(await accessOf(principal, projectId), principal, 'create_note');
      await requireMergeRequest(projectId, mergeRequestId);
      return sql.begin(async (tx) => {
        const note = await db.insertNote(tx, { projectId, noteableType: 'MergeRequest', noteableId: mergeRequestId, authorId: principal.userId!, body, system: false });
        await event(tx, 'note.created', principal, note);
        return note;
      });
    },

    /** Its author, or Master and above (GitLab's admin_note). */
    async updateMergeRequestNote(principal: Principal, projectId: number, mergeRequestId: number, noteId: number, body: string): Promise<NoteRow> {
      const access = authorize(await accessOf(principal, projectId), principal, 'read_project');
      const note = await db.findNote(sql, { projectId, noteableType: 'MergeRequest', noteableId: mergeRequestId }, noteId);
      if (!note) throw notFound('Note');
      if (note.authorId !== principal.userId && !can(access, principal, 'admin_note')) throw forbidden();
      return sql.begin(async (tx) => {
        const updated = await db.updateNoteBody(tx, note.id, body);
        await event(tx, 'note.updated', principal, updated);
        return updated;
      });
    },

    /** The note GitLab left on a state change ("Status changed to closed"). */
    async addSystemNote(tx: TransactionSql, target: { projectId: number; noteableType: NoteRow['noteableType']; noteableId: number }, authorId: number, body: string) {
      const note = await db.insertNote(tx, { ...target, authorId, body, system: true });
      await event(tx, 'note.created', null, note);
    },
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
