import type { ListArgs } from '@hub/common';
import { findNote, type Noteable } from '../db/notes';
import type { NoteableKind, NoteableResolvers } from '../generated/graphql';
import type { NoteableRef } from '../context';
import type { ResolverDeps } from './deps';
import { noteList } from './lists';

export const NOTEABLE_TYPE: Record<NoteableKind, Noteable['noteableType']> = {
  ISSUE: 'Issue',
  SNIPPET: 'Snippet',
  MERGE_REQUEST: 'MergeRequest',
};
const KIND = Object.fromEntries(Object.entries(NOTEABLE_TYPE).map(([kind, type]) => [type, kind])) as Record<
  Noteable['noteableType'],
  NoteableKind
>;

type Target = Noteable;

/** The notes of anything notes are on; Issue, Snippet and MergeRequest share these with Noteable. */
export const noteListOf = (deps: ResolverDeps) => (target: Target, args: ListArgs) => noteList(deps, target, args);
export const noteOf =
  ({ sql }: ResolverDeps) =>
  async (target: Target, id: number) =>
    (await findNote(sql, target, id)) ?? null;

const targetOf = (noteable: NoteableRef): Target => ({
  projectId: noteable.projectId,
  noteableType: noteable.type,
  noteableId: noteable.id,
});

export const createNoteableResolvers = (deps: ResolverDeps): NoteableResolvers => {
  const list = noteListOf(deps);
  const one = noteOf(deps);
  return {
    kind: (noteable) => KIND[noteable.type],
    notes: (noteable, args) => list(targetOf(noteable), args),
    note: (noteable, { id }) => one(targetOf(noteable), id),
  };
};
