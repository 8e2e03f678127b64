import type { AccessClient, InternalClient, Sql } from '@hub/common';
import { createIssues } from './domain/issues';
import { createMergeRequestNotes } from './domain/merge-request-notes';
import { createNotes } from './domain/notes';
import { createSnippets } from './domain/snippets';

/** What this service does, one module per aggregate (issues, snippets, notes), composed for the resolvers. */
export function createNotesService(deps: { sql: Sql; access: AccessClient; mergeRequests: InternalClient }) {
  const notes = createNotes(deps);
  return {
    ...createIssues({ ...deps, notes }),
    ...createSnippets({ ...deps, notes }),
    ...createMergeRequestNotes({ ...deps, notes }),
    addSystemNote: notes.addSystemNote,
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
