import {
  mergeRequestFind,
  authorize,
  can,
  forbidden,
  invalid,
  VISIBILITY_LEVELS,
  notFound,
  notesEvents,
  type AccessClient,
  type InternalClient,
  type Principal,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import * as issues from './db/issues';
import * as snippets from './db/snippets';
import type { SnippetRow } from './db/snippets';
import type { IssueRow } from './db/issues';
import * as db from './db/notes';
import type { NoteRow } from './db/notes';
import { issueAttributes, noteAttributes, snippetAttributes, type NoteableAttributes } from './event-attributes';
import type { CreateIssueInput, CreateSnippetInput, UpdateIssueInput, UpdateSnippetInput } from './generated/graphql';

/** Notes on merge requests (issues and snippets come with their services). */
export function createNotesService(deps: { sql: Sql; access: AccessClient; mergeRequests: InternalClient }) {
  const { sql } = deps;
  const accessOf = (principal: Principal, projectId: number) => deps.access.loader(principal).load(projectId);

  async function requireMergeRequest(projectId: number, id: number) {
    const { found, attributes } = await deps.mergeRequests.call(mergeRequestFind, { projectId, id });
    if (!found) throw notFound();
    return attributes;
  }

  const event = (tx: TransactionSql, type: 'note.created' | 'note.updated', principal: Principal | null, note: NoteRow, noteable: NoteableAttributes = null) =>
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

  type Target = { projectId: number; noteableType: NoteRow['noteableType']; noteableId: number };

  async function createNote(principal: Principal, target: Target, body: string, noteable: NoteableAttributes | null): Promise<NoteRow> {
    return sql.begin(async (tx) => {
      const note = await db.insertNote(tx, { ...target, authorId: principal.userId!, body, system: false });
      await event(tx, 'note.created', principal, note, noteable);
      return note;
    });
  }

  /** Its author, or Master and above (GitLab's admin_note). */
  async function updateNote(principal: Principal, target: Target, noteId: number, body: string): Promise<NoteRow> {
    const access = authorize(await accessOf(principal, target.projectId), principal, 'read_project');
    const note = await db.findNote(sql, target, noteId);
    if (!note) throw notFound('Note');
    if (note.authorId !== principal.userId && !can(access, principal, 'admin_note')) throw forbidden();
    return sql.begin(async (tx) => {
      const updated = await db.updateNoteBody(tx, note.id, body);
      await event(tx, 'note.updated', principal, updated);
      return updated;
    });
  }

  const issueEvent = (tx: TransactionSql, action: 'opened' | 'updated' | 'closed' | 'reopened', principal: Principal, issue: IssueRow) =>
    notesEvents.record(tx, `issue.${action}`, {
      project_id: issue.projectId,
      actor_id: principal.userId,
      actor_username: principal.username,
      action,
      issue_id: issue.id,
      iid: issue.iid,
      title: issue.title,
      state: issue.state,
      attributes: issueAttributes(issue),
    });

  async function issueOr404(projectId: number, id: number): Promise<IssueRow> {
    const issue = await issues.findIssue(sql, projectId, id);
    if (!issue) throw notFound();
    return issue;
  }

  async function snippetOr404(principal: Principal, projectId: number, id: number) {
    const access = authorize(await accessOf(principal, projectId), principal, 'read_project');
    // A project with snippets off shows none, as GitLab's read_project_snippet required the feature.
    const snippet = access.snippetsEnabled ? await snippets.findSnippet(sql, projectId, id) : undefined;
    if (!snippet) throw notFound();
    return { access, snippet };
  }

  const snippetEvent = (tx: TransactionSql, action: 'created' | 'updated' | 'deleted', principal: Principal, snippet: SnippetRow) =>
    notesEvents.record(tx, `snippet.${action}`, { project_id: snippet.projectId, actor_id: principal.userId, actor_username: principal.username, snippet_id: snippet.id, title: snippet.title });

  function checkVisibility(level: number | null | undefined) {
    if (level != null && !VISIBILITY_LEVELS.includes(level)) throw invalid({ visibility_level: ['is not included in the list'] });
  }

  return {
    accessOf,
    snippetOr404,

    async createSnippet(principal: Principal, projectId: number, input: CreateSnippetInput) {
      authorize(await accessOf(principal, projectId), principal, 'create_snippet');
      checkVisibility(input.visibilityLevel);
      return sql.begin(async (tx) => {
        const snippet = await snippets.insertSnippet(tx, {
          projectId,
          title: input.title,
          fileName: input.fileName,
          content: input.code,
          visibilityLevel: input.visibilityLevel ?? 0,
          authorId: principal.userId!,
        });
        await snippetEvent(tx, 'created', principal, snippet);
        return snippet;
      });
    },

    /** Its author, or Master and above. */
    async updateSnippet(principal: Principal, projectId: number, id: number, input: UpdateSnippetInput) {
      const { access, snippet } = await snippetOr404(principal, projectId, id);
      if (snippet.authorId !== principal.userId) authorize(access, principal, 'admin_project');
      checkVisibility(input.visibilityLevel);
      const changes: Partial<SnippetRow> = {};
      if (input.title != null) changes.title = input.title;
      if (input.fileName != null) changes.fileName = input.fileName;
      if (input.code != null) changes.content = input.code;
      if (input.visibilityLevel != null) changes.visibilityLevel = input.visibilityLevel;
      if (Object.keys(changes).length === 0) return snippet;
      return sql.begin(async (tx) => {
        const updated = await snippets.updateSnippet(tx, snippet.id, changes);
        await snippetEvent(tx, 'updated', principal, updated);
        return updated;
      });
    },

    /** Idempotent: a snippet that is already gone gives null. */
    async deleteSnippet(principal: Principal, projectId: number, id: number) {
      const access = authorize(await accessOf(principal, projectId), principal, 'read_project');
      const snippet = await snippets.findSnippet(sql, projectId, id);
      if (!snippet) return null;
      if (snippet.authorId !== principal.userId) authorize(access, principal, 'admin_project');
      return sql.begin(async (tx) => {
        const removed = await snippets.deleteSnippet(tx, snippet.id);
        if (removed) await snippetEvent(tx, 'deleted', principal, removed);
        return removed ?? null;
      });
    },

    async createSnippetNote(principal: Principal, projectId: number, snippetId: number, body: string): Promise<NoteRow> {
      authorize(await accessOf(principal, projectId), principal, 'create_note');
      const { snippet } = await snippetOr404(principal, projectId, snippetId);
      return createNote(principal, { projectId, noteableType: 'Snippet', noteableId: snippetId }, body, snippetAttributes(snippet));
    },

    updateSnippetNote: (principal: Principal, projectId: number, snippetId: number, noteId: number, body: string) =>
      updateNote(principal, { projectId, noteableType: 'Snippet', noteableId: snippetId }, noteId, body),

    async createMergeRequestNote(principal: Principal, projectId: number, mergeRequestId: number, body: string): Promise<NoteRow> {
      authorize(await accessOf(principal, projectId), principal, 'create_note');
      const mergeRequest = await requireMergeRequest(projectId, mergeRequestId);
      return createNote(principal, { projectId, noteableType: 'MergeRequest', noteableId: mergeRequestId }, body, mergeRequest);
    },

    updateMergeRequestNote: (principal: Principal, projectId: number, mergeRequestId: number, noteId: number, body: string) =>
      updateNote(principal, { projectId, noteableType: 'MergeRequest', noteableId: mergeRequestId }, noteId, body),

    async createIssueNote(principal: Principal, projectId: number, issueId: number, body: string): Promise<NoteRow> {
      // Guests may comment on issues, as GitLab v3 allowed.
      authorize(await accessOf(principal, projectId), principal, 'create_note');
      const issue = await issueOr404(projectId, issueId);
      return createNote(principal, { projectId, noteableType: 'Issue', noteableId: issueId }, body, issueAttributes(issue));
    },

    updateIssueNote: (principal: Principal, projectId: number, issueId: number, noteId: number, body: string) =>
      updateNote(principal, { projectId, noteableType: 'Issue', noteableId: issueId }, noteId, body),

    /** Guests may open issues; a project with issues disabled refuses them (403), as GitLab did. */
    async createIssue(principal: Principal, projectId: number, input: CreateIssueInput) {
      authorize(await accessOf(principal, projectId), principal, 'create_issue');
      if (input.title.trim() === '') throw invalid({ title: ["can't be blank"] });
      return sql.begin(async (tx) => {
        const issue = await issues.insertIssue(tx, {
          projectId,
          title: input.title,
          description: input.description ?? null,
          authorId: principal.userId!,
          assigneeId: input.assigneeId ?? null,
          labels: [...new Set(input.labels ?? [])],
        });
        await issueEvent(tx, 'opened', principal, issue);
        return issue;
      });
    },

    /** Its author, or Reporter and above (admin_issue); close and reopen leave a system note. */
    async updateIssue(
      principal: Principal,
      projectId: number,
      id: number,
      input: UpdateIssueInput,
    ) {
      const issue = await issueOr404(projectId, id);
      const access = authorize(await accessOf(principal, projectId), principal, 'read_project');
      if (issue.authorId !== principal.userId) authorize(access, principal, 'admin_issue');
      if (input.stateEvent && !['close', 'reopen'].includes(input.stateEvent)) throw invalid({ state_event: ['is invalid'] });
      const changes: Partial<IssueRow> = {};
      if (input.title != null) changes.title = input.title;
      if (input.description != null) changes.description = input.description;
      if (input.assigneeId != null) changes.assigneeId = input.assigneeId;
      if (input.labels != null) changes.labels = [...new Set(input.labels)];
      let action: 'updated' | 'closed' | 'reopened' = 'updated';
      if (input.stateEvent === 'close' && issue.state !== 'closed') [changes.state, action] = ['closed', 'closed'];
      if (input.stateEvent === 'reopen' && issue.state === 'closed') [changes.state, action] = ['reopened', 'reopened'];
      if (Object.keys(changes).length === 0) return issue;
      return sql.begin(async (tx) => {
        const updated = await issues.updateIssue(tx, issue.id, changes);
        await issueEvent(tx, action, principal, updated);
        if (action === 'closed' || action === 'reopened') {
          const note = await db.insertNote(tx, { projectId, noteableType: 'Issue', noteableId: issue.id, authorId: principal.userId!, body: `Status changed to ${action}`, system: true });
          await event(tx, 'note.created', principal, note);
        }
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
