import { isDownvote, isUpvote } from '../db/notes';
import type { NoteResolvers } from '../generated/graphql';

export const noteResolvers: NoteResolvers = {
  attachment: () => null,
  author: (note) => ({ id: note.authorId }),
  upvote: (note) => isUpvote(note),
  downvote: (note) => isDownvote(note),
};
