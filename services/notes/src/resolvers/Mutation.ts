import { invalid, requireUser } from '@hub/common';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { NOTEABLE_TYPE } from './Noteable';

export const createMutationResolvers = ({ notes }: ResolverDeps): MutationResolvers => ({
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
  createIssue: (_p, { projectId, input }, { principal }) => {
    requireUser(principal);
    return notes.createIssue(principal, projectId, input);
  },
  updateIssue: (_p, { projectId, id, input }, { principal }) => {
    requireUser(principal);
    return notes.updateIssue(principal, projectId, id, input);
  },
  createNote: (_p, { projectId, noteable, noteableId, body }, { principal }) => {
    requireUser(principal);
    return notes.createNote(principal, projectId, NOTEABLE_TYPE[noteable], noteableId, body);
  },
  createCommitNote: (_p, { projectId, ref, body, path, line, lineType }, { principal }) => {
    requireUser(principal);
    if (lineType != null && lineType !== 'new' && lineType !== 'old')
      throw invalid({ line_type: ['is not included in the list'] });
    return notes.createCommitNote(principal, projectId, ref, body, {
      path: path ?? null,
      line: line ?? null,
      lineType: lineType ?? null,
    });
  },
  updateNote: (_p, { projectId, noteable, noteableId, noteId, body }, { principal }) => {
    requireUser(principal);
    return notes.updateNote(principal, projectId, NOTEABLE_TYPE[noteable], noteableId, noteId, body);
  },
});
