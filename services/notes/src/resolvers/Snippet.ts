import type { SnippetResolvers, Visibility } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { noteListOf, noteOf } from './Noteable';
import { storedEnum } from './stored-enum';

/** v3's visibility levels. */
const visibility = storedEnum<number, Visibility>('snippet visibility level', {
  0: 'PRIVATE',
  10: 'INTERNAL',
  20: 'PUBLIC',
});

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
    visibility: (snippet) => visibility(snippet.visibilityLevel),
    notes: (snippet, args) => list(snippetTarget(snippet), args),
    note: (snippet, { id }) => one(snippetTarget(snippet), id),
  };
};
