import { publicEnum } from '@hub/common';
import { isDownvote, isUpvote, type NoteRow } from '../db/notes';
import type { NoteableKind, NoteResolvers } from '../generated/graphql';

/** A comment on a commit is on no Noteable (its commitId names the commit): no kind. */
const noteableKind = publicEnum<NoteRow['noteableType'], NoteableKind | null>('NoteableKind', {
  Issue: 'ISSUE',
  Snippet: 'SNIPPET',
  MergeRequest: 'MERGE_REQUEST',
  Commit: null,
});

export const noteResolvers: NoteResolvers = {
  attachment: () => null,
  author: (note) => ({ id: note.authorId }),
  noteableType: (note) => noteableKind(note.noteableType),
  v3NoteableType: (note) => note.noteableType,
  upvote: (note) => isUpvote(note),
  downvote: (note) => isDownvote(note),
};
