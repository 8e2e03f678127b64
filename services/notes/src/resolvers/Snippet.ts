import { readOrNull, referencedDatabaseId, toGlobalId, visibilityEnumOf } from '@hub/common';
import type { SnippetResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { noteListOf, noteOf } from './Noteable';

const snippetTarget = (snippet: { id: number; projectId: number }) => ({
  projectId: snippet.projectId,
  noteableType: 'Snippet' as const,
  noteableId: snippet.id,
});

export const createSnippetResolvers = (deps: ResolverDeps): SnippetResolvers => {
  const list = noteListOf(deps);
  const one = noteOf(deps);
  return {
    // node(id:) asks by global id: a snippet shows to those who may read it where it is.
    __resolveReference: async (reference, { principal, loaders }) => {
      const id = referencedDatabaseId('Snippet', reference);
      const snippet = id === null ? null : await loaders.snippets.load(id);
      if (!snippet) return null;
      return readOrNull(async () =>
        (await deps.notes.noteable(principal, snippet.projectId, 'Snippet', snippet.id)) ? snippet : null,
      );
    },
    id: (snippet) => toGlobalId('Snippet', snippet.id),
    databaseId: (snippet) => snippet.id,
    author: (snippet) => ({ id: snippet.authorId }),
    visibility: (snippet) => visibilityEnumOf(snippet.visibilityLevel),
    notes: (snippet, args) => list(snippetTarget(snippet), args),
    note: (snippet, { id }) => one(snippetTarget(snippet), id),
  };
};
