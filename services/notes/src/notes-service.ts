import type { AccessClient, InternalClient, SettingsClient, Sql } from '@hub/common';
import { createCommitNotes } from './domain/commit-notes';
import { createIssues } from './domain/issues';
import { createLabels } from './domain/labels';
import { createMilestones } from './domain/milestones';
import { createMergeRequests } from './domain/merge-requests';
import { createNoteables } from './domain/noteables';
import { createNotes } from './domain/notes';
import { createSnippets } from './domain/snippets';

/** What this service does, one module per aggregate (issues, labels, milestones, snippets, notes, commit comments), composed for the resolvers. */
export function createNotesService(deps: {
  sql: Sql;
  access: AccessClient;
  identity: InternalClient;
  mergeRequests: InternalClient;
  repository: InternalClient;
  settings?: SettingsClient;
}) {
  const notes = createNotes(deps);
  const labels = createLabels(deps);
  const milestones = createMilestones(deps);
  const issues = createIssues({ ...deps, notes, labels, milestones });
  const snippets = createSnippets(deps);
  const { mergeRequestForNote } = createMergeRequests(deps);
  const noteables = createNoteables({
    access: deps.access,
    notes,
    find: {
      Issue: (_principal, projectId, id) => issues.issueForNote(projectId, id),
      Snippet: snippets.snippetForNote,
      MergeRequest: (_principal, projectId, id) => mergeRequestForNote(projectId, id),
    },
  });
  const { issueForNote: _issue, ...issueOperations } = issues;
  const { snippetForNote: _snippet, ...snippetOperations } = snippets;
  const commitNotes = createCommitNotes({ ...deps, notes });
  return {
    ...issueOperations,
    ...snippetOperations,
    ...noteables,
    ...commitNotes,
    ...labels,
    ...milestones,
    addSystemNote: notes.addSystemNote,
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
