import {
  authorize,
  guardProjectWrite,
  invalid,
  notesEvents,
  recordNotFound,
  restrictedVisibilityRefusal,
  VISIBILITY_LEVELS,
  type AccessClient,
  type Principal,
  type SettingsClient,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import * as snippets from '../db/snippets';
import type { SnippetRow } from '../db/snippets';
import { snippetAttributes } from '../event-attributes';

/** A new snippet; visibilityLevel is v3's number (0, 10 or 20; others are refused), 0 when null. */
export interface NewSnippet {
  title: string;
  fileName: string;
  code: string;
  visibilityLevel?: number | null;
}

/** Changes to a snippet; null or absent fields keep their value. */
export interface SnippetChanges {
  title?: string | null;
  fileName?: string | null;
  code?: string | null;
  visibilityLevel?: number | null;
}

/** Project snippets (only where the feature is on). Without `settings`, no level is restricted. */
export function createSnippets(deps: { sql: Sql; access: AccessClient; settings?: SettingsClient }) {
  const { sql } = deps;
  const accessOf = (principal: Principal, projectId: number) => deps.access.loader(principal).load(projectId);

  async function readableSnippet(principal: Principal, projectId: number, id: number) {
    const access = authorize(await accessOf(principal, projectId), principal, 'read_project');
    // A project with snippets off shows none, as GitLab's read_project_snippet required the feature.
    const snippet = access.snippetsEnabled ? await snippets.findSnippet(sql, projectId, id) : undefined;
    return { access, snippet };
  }

  async function snippetOr404(principal: Principal, projectId: number, id: number) {
    const { access, snippet } = await readableSnippet(principal, projectId, id);
    if (!snippet) throw recordNotFound();
    return { access, snippet };
  }

  const snippetEvent = (
    tx: TransactionSql,
    action: 'created' | 'updated' | 'deleted',
    principal: Principal,
    snippet: SnippetRow,
  ) =>
    notesEvents.record(tx, `snippet.${action}`, {
      project_id: snippet.projectId,
      actor_id: principal.userId,
      actor_username: principal.username,
      snippet_id: snippet.id,
      title: snippet.title,
    });

  function checkVisibility(level: number | null | undefined) {
    if (level != null && !VISIBILITY_LEVELS.includes(level))
      throw invalid({ visibility_level: ['is not included in the list'] });
  }

  /** GitLab's Create/UpdateSnippetService: restricted_visibility_levels are for admins only (400 per field). */
  async function refuseRestricted(principal: Principal, level: number | null | undefined) {
    if (level == null || principal.isAdmin || !deps.settings) return;
    const refusal = restrictedVisibilityRefusal(await deps.settings.get(), false, level);
    if (refusal) throw refusal;
  }

  return {
    async createSnippet(principal: Principal, projectId: number, input: NewSnippet) {
      authorize(await accessOf(principal, projectId), principal, 'create_snippet');
      checkVisibility(input.visibilityLevel);
      await refuseRestricted(principal, input.visibilityLevel);
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
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
    async updateSnippet(principal: Principal, projectId: number, id: number, input: SnippetChanges) {
      const { access, snippet } = await snippetOr404(principal, projectId, id);
      if (snippet.authorId !== principal.userId) authorize(access, principal, 'admin_project');
      checkVisibility(input.visibilityLevel);
      if (input.visibilityLevel !== snippet.visibilityLevel) await refuseRestricted(principal, input.visibilityLevel);
      const changes: Partial<SnippetRow> = {};
      if (input.title != null) changes.title = input.title;
      if (input.fileName != null) changes.fileName = input.fileName;
      if (input.code != null) changes.content = input.code;
      if (input.visibilityLevel != null) changes.visibilityLevel = input.visibilityLevel;
      if (Object.keys(changes).length === 0) return snippet;
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        const updated = await snippets.updateSnippet(tx, snippet.id, changes);
        // Deleted since it was read: answered as a delete that came first would have it.
        if (!updated) throw recordNotFound();
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

    /** The snippet a note is made on (readable, snippets on), as the note's event shows it; null when there is none such. */
    async snippetForNote(principal: Principal, projectId: number, id: number) {
      const { snippet } = await readableSnippet(principal, projectId, id);
      return snippet ? snippetAttributes(snippet) : null;
    },
  };
}
