import type {
  notesEvents,
  issueAttributes as IssueAttributesSchema,
  noteAttributes as NoteAttributesSchema,
  snippetAttributes as SnippetAttributesSchema,
} from '@hub/common';
import type { z } from 'zod';
import type { IssueRow } from './db/issues';
import type { NoteRow } from './db/notes';
import type { SnippetRow } from './db/snippets';

/**
 * Issues, snippets and notes as their events carry them (the contract's attribute schemas), so
 * consumers such as project hooks need not ask this service again.
 */
export const issueAttributes = (issue: IssueRow): z.input<typeof IssueAttributesSchema> => ({
  id: issue.id,
  iid: issue.iid,
  project_id: issue.projectId,
  title: issue.title,
  description: issue.description ?? '',
  state: issue.state,
  author_id: issue.authorId,
  assignee_id: issue.assigneeId,
  milestone_id: issue.milestoneId,
  labels: issue.labels,
  created_at: issue.createdAt.toISOString(),
  updated_at: issue.updatedAt.toISOString(),
});

export const snippetAttributes = (snippet: SnippetRow): z.input<typeof SnippetAttributesSchema> => ({
  id: snippet.id,
  project_id: snippet.projectId,
  title: snippet.title,
  file_name: snippet.fileName,
  content: snippet.content,
  author_id: snippet.authorId,
  visibility_level: snippet.visibilityLevel,
  expires_at: snippet.expiresAt ? new Date(snippet.expiresAt).toISOString() : null,
  type: 'ProjectSnippet' as const,
  created_at: snippet.createdAt.toISOString(),
  updated_at: snippet.updatedAt.toISOString(),
});

export const noteAttributes = (note: NoteRow): z.input<typeof NoteAttributesSchema> => ({
  id: note.id,
  note: note.body,
  noteable_type: note.noteableType,
  noteable_id: note.noteableId,
  author_id: note.authorId,
  project_id: note.projectId,
  system: note.system,
  attachment: null,
  // GitLab's line_code was a digest of the diff line; the path and line are kept instead.
  line_code: null,
  commit_id: note.commitId,
  st_diff: null,
  created_at: note.createdAt.toISOString(),
  updated_at: note.updatedAt.toISOString(),
});

/** What a note was made on, as GitLab's note hook shows it beside the note. */
export type NoteableAttributes = z.input<(typeof notesEvents.schemas)['note.created']>['noteable'];
