import { invalid, mutationPayload, requireUser } from '@hub/common';
import type { IssueStateEvent, MutationResolvers, Visibility } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { NOTEABLE_TYPE } from './Noteable';

/** v3's visibility_level numbers of the public levels. */
const VISIBILITY_LEVELS: Record<Visibility, number> = { PRIVATE: 0, INTERNAL: 10, PUBLIC: 20 };

/** The issue service's words for the public state events. */
const ISSUE_STATE_EVENTS: Record<IssueStateEvent, string> = { CLOSE: 'close', REOPEN: 'reopen' };

/** The level a snippet input asks for: v3's raw number when the facade sent one, else the enum's. */
const visibilityLevelOf = (visibility?: Visibility | null, v3VisibilityLevel?: number | null) =>
  v3VisibilityLevel ?? (visibility ? VISIBILITY_LEVELS[visibility] : null);

export const createMutationResolvers = ({ notes }: ResolverDeps): MutationResolvers => ({
  createSnippet: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, visibility, v3VisibilityLevel, ...snippet } = input;
    return mutationPayload('snippet', { clientMutationId }, info, () =>
      notes.createSnippet(principal, projectId, {
        ...snippet,
        visibilityLevel: visibilityLevelOf(visibility, v3VisibilityLevel),
      }),
    );
  },
  updateSnippet: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, snippetId, visibility, v3VisibilityLevel, ...changes } = input;
    return mutationPayload('snippet', { clientMutationId }, info, () =>
      notes.updateSnippet(principal, projectId, snippetId, {
        ...changes,
        visibilityLevel: visibilityLevelOf(visibility, v3VisibilityLevel),
      }),
    );
  },
  deleteSnippet: (_p, { input: { clientMutationId, projectId, snippetId } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('snippet', { clientMutationId }, info, () =>
      notes.deleteSnippet(principal, projectId, snippetId),
    );
  },
  createIssue: (_p, { input: { clientMutationId, projectId, ...issue } }, { principal }, info) => {
    requireUser(principal);
    return mutationPayload('issue', { clientMutationId }, info, () => notes.createIssue(principal, projectId, issue));
  },
  updateIssue: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, issueId, stateEvent, v3StateEvent, ...changes } = input;
    return mutationPayload('issue', { clientMutationId }, info, () =>
      notes.updateIssue(principal, projectId, issueId, {
        ...changes,
        stateEvent: v3StateEvent ?? (stateEvent ? ISSUE_STATE_EVENTS[stateEvent] : null),
      }),
    );
  },
  createNote: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, noteable, noteableId, body } = input;
    return mutationPayload('note', { clientMutationId }, info, () =>
      notes.createNote(principal, projectId, NOTEABLE_TYPE[noteable], noteableId, body),
    );
  },
  createCommitNote: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, ref, body, path, line, lineType } = input;
    return mutationPayload('note', { clientMutationId }, info, () => {
      if (lineType != null && lineType !== 'new' && lineType !== 'old')
        throw invalid({ line_type: ['is not included in the list'] });
      return notes.createCommitNote(principal, projectId, ref, body, {
        path: path ?? null,
        line: line ?? null,
        lineType: lineType ?? null,
      });
    });
  },
  updateNote: (_p, { input }, { principal }, info) => {
    requireUser(principal);
    const { clientMutationId, projectId, noteable, noteableId, noteId, body } = input;
    return mutationPayload('note', { clientMutationId }, info, () =>
      notes.updateNote(principal, projectId, NOTEABLE_TYPE[noteable], noteableId, noteId, body),
    );
  },
});
