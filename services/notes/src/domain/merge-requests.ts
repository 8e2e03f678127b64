import { mergeRequestFind, type InternalClient } from '@hub/common';
import type { NoteableAttributes } from '../event-attributes';

/** Merge requests belong to the merge requests service: it says whether one is the project's. */
export function createMergeRequests(deps: { mergeRequests: InternalClient }) {
  return {
    /** The merge request a note is made on, as the note's event shows it; null when the project has none such. */
    async mergeRequestForNote(projectId: number, id: number): Promise<NoteableAttributes | null> {
      const { found, attributes } = await deps.mergeRequests.call(mergeRequestFind, { projectId, id });
      return found ? attributes : null;
    },
  };
}
