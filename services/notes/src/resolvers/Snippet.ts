import { visibilityEnumOf } from '@hub/common';
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
    author: (snippet) => ({ id: snippet.authorId }),
    visibility: (snippet) => visibilityEnumOf(snippet.visibilityLevel),
    notes: (snippet, args) => list(snippetTarget(snippet), args),
    note: (snippet, { id }) => one(snippetTarget(snippet), id),
  };
};
