import { authorize, pageWindow, requireUser, type Sql } from '@hub/common';
import { findIssue, listIssues } from './db/issues';
import { findSnippet, listSnippets } from './db/snippets';
import { DOWNVOTES, findNote, listNotes, UPVOTES } from './db/notes';
import type { Resolvers } from './generated/graphql';
import type { NotesService } from './notes-service';

export interface ResolverDeps {
  sql: Sql;
  notes: NotesService;
}

export function createResolvers({ sql, notes }: ResolverDeps): Resolvers {
  const target = (mr: { id: number; projectId?: number }) => ({ projectId: mr.projectId!, noteableType: 'MergeRequest' as const, noteableId: mr.id });
  const issueTarget = (issue: { id: number; projectId: number }) => ({ projectId: issue.projectId, noteableType: 'Issue' as const, noteableId: issue.id });
  const snippetTarget = (snippet: { id: number; projectId: number }) => ({ projectId: snippet.projectId, noteableType: 'Snippet' as const, noteableId: snippet.id });
  const ISSUE_STATES: Record<string, string[] | null> = { OPENED: ['opened', 'reopened'], CLOSED: ['closed'], ALL: null };

  return {
    MergeRequest: {
      __resolveReference: (reference) => reference as { id: number; projectId?: number },
      notes: async (mr, args, { principal, loaders }) => {
        authorize(await loaders.access.load(mr.projectId!), principal, 'read_project');
        const { rows, total } = await listNotes(sql, target(mr), pageWindow(args.page, args.perPage));
        return { nodes: rows, total };
      },
      note: async (mr, { id }, { principal, loaders }) => {
        authorize(await loaders.access.load(mr.projectId!), principal, 'read_project');
        return (await findNote(sql, target(mr), id)) ?? null;
      },
      upvotes: async (mr, _args, { loaders }) => (await loaders.mergeRequestVotes.load(mr.id)).up,
      downvotes: async (mr, _args, { loaders }) => (await loaders.mergeRequestVotes.load(mr.id)).down,
    },
    Project: {
      __resolveReference: (reference) => ({ id: (reference as { id: number }).id }),
      issues: async (project, args, { principal, loaders }) => {
        authorize(await loaders.access.load(project.id), principal, 'read_project');
        const { rows, total } = await listIssues(
          sql,
          { projectId: project.id, states: ISSUE_STATES[args.state ?? 'ALL'] ?? null, labels: args.labels ?? [], iid: args.iid },
          pageWindow(args.page, args.perPage),
        );
        return { nodes: rows, total };
      },
      snippets: async (project, args, { principal, loaders }) => {
        const access = authorize(await loaders.access.load(project.id), principal, 'read_project');
        if (!access.snippetsEnabled) return { nodes: [], total: 0 };
        const { rows, total } = await listSnippets(sql, project.id, pageWindow(args.page, args.perPage));
        return { nodes: rows, total };
      },
      snippet: async (project, { id }, { principal, loaders }) => {
        const access = authorize(await loaders.access.load(project.id), principal, 'read_project');
        return access.snippetsEnabled ? ((await findSnippet(sql, project.id, id)) ?? null) : null;
      },
      issue: async (project, { id }, { principal, loaders }) => {
        authorize(await loaders.access.load(project.id), principal, 'read_project');
        return (await findIssue(sql, project.id, id)) ?? null;
      },
    },
    Snippet: {
      author: (snippet) => ({ id: snippet.authorId }),
      notes: async (snippet, args) => {
        const { rows, total } = await listNotes(sql, snippetTarget(snippet), pageWindow(args.page, args.perPage));
        return { nodes: rows, total };
      },
      note: async (snippet, { id }) => (await findNote(sql, snippetTarget(snippet), id)) ?? null,
    },
    Issue: {
      author: (issue) => ({ id: issue.authorId }),
      assignee: (issue) => (issue.assigneeId === null ? null : { id: issue.assigneeId }),
      notes: async (issue, args) => {
        const { rows, total } = await listNotes(sql, issueTarget(issue), pageWindow(args.page, args.perPage));
        return { nodes: rows, total };
      },
      note: async (issue, { id }) => (await findNote(sql, issueTarget(issue), id)) ?? null,
      upvotes: async (issue, _args, { loaders }) => (await loaders.issueVotes.load(issue.id)).up,
      downvotes: async (issue, _args, { loaders }) => (await loaders.issueVotes.load(issue.id)).down,
    },
    Note: {
      attachment: () => null,
      author: (note) => ({ id: note.authorId }),
      upvote: (note) => !note.system && UPVOTES.includes(note.body.trim()),
      downvote: (note) => !note.system && DOWNVOTES.includes(note.body.trim()),
    },
    Mutation: {
      createSnippet: (_p, { projectId, input }, { principal }) => {
        requireUser(principal);
        return notes.createSnippet(principal, projectId, input);
      },
      updateSnippet: (_p, { projectId, id, input }, { principal }) => {
        requireUser(principal);
        return notes.updateSnippet(principal, projectId, id, input);
      },
      deleteSnippet: (_p, { projectId, id }, { principal }) => {
        requireUser(principal);
        return notes.deleteSnippet(principal, projectId, id);
      },
      createSnippetNote: (_p, { projectId, snippetId, body }, { principal }) => {
        requireUser(principal);
        return notes.createSnippetNote(principal, projectId, snippetId, body);
      },
      updateSnippetNote: (_p, { projectId, snippetId, noteId, body }, { principal }) => {
        requireUser(principal);
        return notes.updateSnippetNote(principal, projectId, snippetId, noteId, body);
      },
      createIssue: (_p, { projectId, input }, { principal }) => {
        requireUser(principal);
        return notes.createIssue(principal, projectId, input);
      },
      updateIssue: (_p, { projectId, id, input }, { principal }) => {
        requireUser(principal);
        return notes.updateIssue(principal, projectId, id, input);
      },
      createIssueNote: (_p, { projectId, issueId, body }, { principal }) => {
        requireUser(principal);
        return notes.createIssueNote(principal, projectId, issueId, body);
      },
      updateIssueNote: (_p, { projectId, issueId, noteId, body }, { principal }) => {
        requireUser(principal);
        return notes.updateIssueNote(principal, projectId, issueId, noteId, body);
      },
      createMergeRequestNote: (_p, { projectId, mergeRequestId, body }, { principal }) => {
        requireUser(principal);
        return notes.createMergeRequestNote(principal, projectId, mergeRequestId, body);
      },
      updateMergeRequestNote: (_p, { projectId, mergeRequestId, noteId, body }, { principal }) => {
        requireUser(principal);
        return notes.updateMergeRequestNote(principal, projectId, mergeRequestId, noteId, body);
      },
    },
  };
}
