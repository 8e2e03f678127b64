// The contract of services/notes: the events it emits. Owned by notes.
import { z } from 'zod';
import { titleProblems } from '../label-rules';
import { pushedCommit } from './git-worker';
import { defineEvents, endpoint, payload } from './define';
import { mergeRequestAttributes } from './mergerequests';
import { actor, assigneeId, id, timestamp } from './shared';

/** Issues, snippets and notes as their events carry them: GitLab's hook attributes. */
export const issueAttributes = z.object({
  id,
  iid: z.number().int(),
  project_id: id,
  title: z.string(),
  description: z.string(),
  state: z.enum(['opened', 'closed', 'reopened']),
  author_id: id,
  assignee_id: assigneeId.nullable(),
  milestone_id: id.nullable(),
  labels: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
});

export const snippetAttributes = z.object({
  id,
  project_id: id,
  title: z.string(),
  file_name: z.string(),
  content: z.string(),
  author_id: id,
  visibility_level: z.number().int(),
  expires_at: timestamp.nullable(),
  type: z.literal('ProjectSnippet'),
  created_at: timestamp,
  updated_at: timestamp,
});

export const noteableTypes = ['Issue', 'Snippet', 'MergeRequest', 'Commit'] as const;

export const noteAttributes = z.object({
  id,
  note: z.string(),
  noteable_type: z.enum(noteableTypes),
  /** Null for a comment on a commit, which commit_id names instead (as GitLab had it). */
  noteable_id: id.nullable(),
  author_id: id,
  project_id: id,
  system: z.boolean(),
  attachment: z.null(),
  line_code: z.string().nullable(),
  commit_id: z.string().nullable(),
  st_diff: z.null(),
  created_at: timestamp,
  updated_at: timestamp,
});

const issue = payload({
  project_id: id,
  ...actor,
  action: z.string(),
  issue_id: id,
  iid: z.number().int(),
  title: z.string(),
  state: z.string(),
  attributes: issueAttributes,
});

const note = payload({
  project_id: id,
  ...actor,
  note_id: id,
  noteable_type: z.enum(noteableTypes),
  /** Null for a comment on a commit (note.commit_id names it). */
  noteable_id: id.nullable(),
  body: z.string(),
  system: z.boolean(),
  note: noteAttributes,
  /** What the note was made on; only on notes people write (not system notes, not edits). */
  noteable: z.union([issueAttributes, mergeRequestAttributes, snippetAttributes, pushedCommit]).nullable(),
});

const snippet = payload({ project_id: id, ...actor, snippet_id: id, title: z.string() });

/** A project label renamed or removed: merge requests (which keep label names) follow it. */
const label = payload({
  project_id: id,
  ...actor,
  label_id: id,
  /** The name before the change. */
  previous_title: z.string(),
  /** The name now; null once removed. */
  title: z.string().nullable(),
});

/** A milestone made or changed: issues and merge requests show it (no hook sends it). */
const milestone = payload({
  project_id: id,
  ...actor,
  milestone_id: id,
  title: z.string(),
  state: z.enum(['active', 'closed']),
});

export const notesEvents = defineEvents('notes', {
  'issue.opened': issue,
  'issue.updated': issue,
  'issue.closed': issue,
  'issue.reopened': issue,
  'note.created': note,
  'note.updated': note,
  'snippet.created': snippet,
  'snippet.updated': snippet,
  'snippet.deleted': snippet,
  'label.updated': label,
  'label.deleted': label,
  'milestone.created': milestone,
  'milestone.updated': milestone,
});

/** IssuableFinder::NONE: a milestone_id of 0 takes an issue's or merge request's milestone away. */
export const NO_MILESTONE = 0;

/**
 * Label names a merge request keeps, already checked against the label rules (stripped, distinct,
 * each one a title a label may have): a name the rules refuse is refused here too, never made.
 */
const checkedLabelNames = z
  .array(
    z
      .string()
      .refine(
        (name) => name === name.trim() && titleProblems(name).length === 0,
        'a label title the label rules refuse',
      ),
  )
  .max(1000);

/**
 * What a merge request is given, against its (target) project, once it is sure to be saved: the
 * labels of these names the project lacks are made in GitLab's default colour, as
 * add_labels_by_names did, and the milestone is answered when it is one of the project's (null
 * otherwise).
 */
export const issuableMetadataPrepare = endpoint(
  '/internal/labels-milestones/prepare',
  z.object({ projectId: id, labels: checkedLabelNames, milestoneId: id.nullable() }),
  z.object({ milestoneId: id.nullable() }),
);
