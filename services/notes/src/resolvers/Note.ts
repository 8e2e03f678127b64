import { publicEnum, readOrNull, referencedDatabaseId, toGlobalId } from '@hub/common';
import { isDownvote, isUpvote, type NoteRow } from '../db/notes';
import type { NoteableKind, NoteResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** A comment on a commit is on no Noteable (its commitId names the commit): no kind. */
const noteableKind = publicEnum<NoteRow['noteableType'], NoteableKind | null>('NoteableKind', {
  Issue: 'ISSUE',
  Snippet: 'SNIPPET',
  MergeRequest: 'MERGE_REQUEST',
  Commit: null,
});

export const createNoteResolvers = ({ notes }: ResolverDeps): NoteResolvers => ({
  // node(id:) asks by global id: a note shows to those who may read what it is on (for a comment
  // on a commit, the project's code).
  __resolveReference: async (reference, { principal, loaders }) => {
    const id = referencedDatabaseId('Note', reference);
    const note = id === null ? null : await loaders.notes.load(id);
    if (!note) return null;
    return readOrNull(async () => {
      const on =
        note.noteableType === 'Commit'
          ? await notes.commitForNotes(principal, note.projectId, note.commitId ?? '')
          : await notes.noteable(principal, note.projectId, note.noteableType, note.noteableId ?? 0);
      return on ? note : null;
    });
  },
  id: (note) => toGlobalId('Note', note.id),
  databaseId: (note) => note.id,
  attachment: () => null,
  author: (note) => ({ id: note.authorId }),
  noteableType: (note) => noteableKind(note.noteableType),
  v3NoteableType: (note) => note.noteableType,
  upvote: (note) => isUpvote(note),
  downvote: (note) => isDownvote(note),
});
