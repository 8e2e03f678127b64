import { pageWindow } from '@hub/common';
import { findNote, listNotes } from '../db/notes';
import type { SnippetResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const snippetTarget = (snippet: { id: number; projectId: number }) => ({ projectId: snippet.projectId, noteableType: 'Snippet' as const, noteableId: snippet.id });

export const createSnippetResolvers = ({ sql }: ResolverDeps): SnippetResolvers => ({
  author: (snippet) => ({ id: snippet.authorId }),
  notes: async (snippet, args) => {
    const { rows, total } = await listNotes(sql, snippetTarget(snippet), pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  note: async (snippet, { id }) => (await findNote(sql, snippetTarget(snippet), id)) ?? null,
});
