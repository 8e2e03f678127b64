import { authorize, recordNotFound, type AccessClient, type Principal } from '@hub/common';
import type { Noteable, NoteRow } from '../db/notes';
import type { NoteableAttributes } from '../event-attributes';
import type { Notes } from './notes';

export type NoteableType = Noteable['noteableType'];

/** How each kind finds the thing a note is on (null when the project has none such), owned by that kind's module. */
export type NoteableFinders = Record<
  NoteableType,
  (principal: Principal, projectId: number, id: number) => Promise<NoteableAttributes | null>
>;

/**
 * One path for notes on issues, snippets and merge requests: the kind is a parameter, and the only
 * thing that differs per kind is how the noted thing is found.
 */
export function createNoteables(deps: { access: AccessClient; notes: Notes; find: NoteableFinders }) {
  const { notes, find } = deps;

  /** The thing noted, readable by the principal; null when the project has none such. */
  async function noteable(principal: Principal, projectId: number, type: NoteableType, id: number) {
    authorize(await deps.access.loader(principal).load(projectId), principal, 'read_project');
    return find[type](principal, projectId, id);
  }

  async function noteableOr404(principal: Principal, projectId: number, type: NoteableType, id: number) {
    const attributes = await find[type](principal, projectId, id);
    if (!attributes) throw recordNotFound();
    return attributes;
  }

  return {
    noteable,

    /** Guests and up may comment on anything they can read, as GitLab v3 allowed. */
    async createNote(
      principal: Principal,
      projectId: number,
      type: NoteableType,
      noteableId: number,
      body: string,
    ): Promise<NoteRow> {
      authorize(await deps.access.loader(principal).load(projectId), principal, 'create_note');
      const attributes = await noteableOr404(principal, projectId, type, noteableId);
      return notes.create(principal, { projectId, noteableType: type, noteableId }, body, attributes);
    },

    /** Its author, or Master and above; the noted thing must still be there. */
    async updateNote(
      principal: Principal,
      projectId: number,
      type: NoteableType,
      noteableId: number,
      noteId: number,
      body: string,
    ): Promise<NoteRow> {
      authorize(await deps.access.loader(principal).load(projectId), principal, 'read_project');
      await noteableOr404(principal, projectId, type, noteableId);
      return notes.update(principal, { projectId, noteableType: type, noteableId }, noteId, body);
    },
  };
}
