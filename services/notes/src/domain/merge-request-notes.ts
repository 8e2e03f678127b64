import { authorize, mergeRequestFind, notFound, type AccessClient, type InternalClient, type Principal } from '@hub/common';
import type { NoteRow } from '../db/notes';
import type { Notes } from './notes';

/** Notes on merge requests, which the merge requests service owns: it says whether one is the project's. */
export function createMergeRequestNotes(deps: { access: AccessClient; mergeRequests: InternalClient; notes: Notes }) {
  const { notes } = deps;

  async function requireMergeRequest(projectId: number, id: number) {
    if (id < 1 || id > 2 ** 31 - 1) throw notFound();
    const { found, attributes } = await deps.mergeRequests.call(mergeRequestFind, { projectId, id });
    if (!found) throw notFound();
    return attributes;
  }

  return {
    async createMergeRequestNote(principal: Principal, projectId: number, mergeRequestId: number, body: string): Promise<NoteRow> {
      authorize(await deps.access.loader(principal).load(projectId), principal, 'create_note');
      const mergeRequest = await requireMergeRequest(projectId, mergeRequestId);
      return notes.create(principal, { projectId, noteableType: 'MergeRequest', noteableId: mergeRequestId }, body, mergeRequest);
    },

    updateMergeRequestNote: (principal: Principal, projectId: number, mergeRequestId: number, noteId: number, body: string) =>
      notes.update(principal, { projectId, noteableType: 'MergeRequest', noteableId: mergeRequestId }, noteId, body),
  };
}
