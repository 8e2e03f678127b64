import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import { countLabels, LABEL_ORDERING, listLabels, listLabelsKeyset, type LabelRow } from '../db/labels';
import {
  countMilestones,
  listMilestones,
  listMilestonesKeyset,
  MILESTONE_ORDERING,
  type MilestoneFilter,
  type MilestoneRow,
} from '../db/milestones';
import { countNotes, listNotes, listNotesKeyset, NOTE_ORDERING, type NoteList, type NoteRow } from '../db/notes';
import { countSnippets, listSnippets, listSnippetsKeyset, SNIPPET_ORDERING, type SnippetRow } from '../db/snippets';
import type {
  LabelConnectionResolvers,
  MilestoneConnectionResolvers,
  NoteConnectionResolvers,
  SnippetConnectionResolvers,
} from '../generated/graphql';
import type { ResolverDeps } from './deps';

// The lists of notes, snippets, labels and milestones as their connection types resolve them
// (common/connections.ts): by cursors for the public schema, by page number for the facade.

export type NoteConnectionParent = ConnectionParent<NoteRow>;
export type SnippetConnectionParent = ConnectionParent<SnippetRow>;
export type LabelConnectionParent = ConnectionParent<LabelRow>;
export type MilestoneConnectionParent = ConnectionParent<MilestoneRow>;

type Deps = Pick<ResolverDeps, 'sql' | 'cursors'>;

/** The notes on an issue, snippet or merge request, or the comments on a commit; oldest first. */
export const noteList = ({ sql, cursors }: Deps, list: NoteList, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: NOTE_ORDERING,
    byNumber: (window) => listNotes(sql, list, window),
    byKeyset: (window) => listNotesKeyset(sql, list, window),
    count: () => countNotes(sql, list),
  });

/** A project's snippets, newest first. */
export const snippetList = ({ sql, cursors }: Deps, projectId: number, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: SNIPPET_ORDERING,
    byNumber: (window) => listSnippets(sql, projectId, window),
    byKeyset: (window) => listSnippetsKeyset(sql, projectId, window),
    count: () => countSnippets(sql, projectId),
  });

/** The snippet list of a project with snippets disabled: empty, its arguments checked all the same. */
export const noSnippets = ({ cursors }: Deps, args: ListArgs) =>
  pagedList<SnippetRow>(cursors, args, {
    ordering: SNIPPET_ORDERING,
    byNumber: async () => ({ rows: [], total: 0 }),
    byKeyset: async () => ({ rows: [], beyond: false }),
    count: async () => 0,
  });

/** A project's labels, by name. */
export const labelList = ({ sql, cursors }: Deps, projectId: number, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: LABEL_ORDERING,
    byNumber: (window) => listLabels(sql, projectId, window),
    byKeyset: (window) => listLabelsKeyset(sql, projectId, window),
    count: () => countLabels(sql, projectId),
  });

/** A project's milestones, newest first. */
export const milestoneList = ({ sql, cursors }: Deps, filter: MilestoneFilter, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: MILESTONE_ORDERING,
    byNumber: (window) => listMilestones(sql, filter, window),
    byKeyset: (window) => listMilestonesKeyset(sql, filter, window),
    count: () => countMilestones(sql, filter),
  });

export const noteConnectionResolvers: NoteConnectionResolvers = connectionResolvers;
export const snippetConnectionResolvers: SnippetConnectionResolvers = connectionResolvers;
export const labelConnectionResolvers: LabelConnectionResolvers = connectionResolvers;
export const milestoneConnectionResolvers: MilestoneConnectionResolvers = connectionResolvers;
