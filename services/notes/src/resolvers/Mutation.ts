import { requireUser } from '@hub/common';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

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
});
