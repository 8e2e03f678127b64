import { DOWNVOTES, UPVOTES } from '../db/notes';
import type { NoteResolvers } from '../generated/graphql';

export const noteResolvers: NoteResolvers = {
  attachment: () => null,
  author: (note) => ({ id: note.authorId }),
  upvote: (note) => !note.system && UPVOTES.includes(note.body.trim()),
  downvote: (note) => !note.system && DOWNVOTES.includes(note.body.trim()),
};
