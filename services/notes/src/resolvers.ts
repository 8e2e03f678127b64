import { authorize, pageWindow, requireUser, type Sql } from '@hub/common';
import DataLoader from 'dataloader';
import { countVotes, DOWNVOTES, findNote, listNotes, UPVOTES } from './db/notes';
import type { Resolvers } from './generated/graphql';
import type { NotesService } from './notes-service';

export interface ResolverDeps {
  sql: Sql;
  notes: NotesService;
}

export function createResolvers({ sql, notes }: ResolverDeps): Resolvers {
  // Votes of every merge request a request lists, in one query.
  const votesLoaders = new WeakMap<object, DataLoader<number, { up: number; down: number }>>();
  const votes = (context: object) => {
    let loader = votesLoaders.get(context);
    if (!loader) {
      loader = new DataLoader(async (ids) => {
        const counts = await countVotes(sql, 'MergeRequest', ids);
        return ids.map((id) => counts.get(id) ?? { up: 0, down: 0 });
      });
      votesLoaders.set(context, loader);
    }
    return loader;
  };
  const target = (mr: { id: number; projectId?: number }) => ({ projectId: mr.projectId!, noteableType: 'MergeRequest' as const, noteableId: mr.id });

  return {
    MergeRequest: {
      __resolveReference: (reference) => reference as { id: number; projectId?: number },
      notes: async (mr, args, { principal, loaders }) => {
        authorize(await loaders.access.load(mr.projectId!), principal, 'read_project');
        const { rows, total } = await listNotes(sql, target(mr), pageWindow(args.page, args.perPage));
        return { nodes: rows, total };
      },
      note: async (mr, { id }, { principal, loaders }) => {
        authorize(await loaders.access.load(mr.projectId!), principal, 'read_project');
        return (await findNote(sql, target(mr), id)) ?? null;
      },
      upvotes: async (mr, _args, context) => (await votes(context).load(mr.id)).up,
      downvotes: async (mr, _args, context) => (await votes(context).load(mr.id)).down,
    },
    Note: {
      attachment: () => null,
      author: (note) => ({ id: note.authorId }),
      upvote: (note) => !note.system && UPVOTES.includes(note.body.trim()),
      downvote: (note) => !note.system && DOWNVOTES.includes(note.body.trim()),
    },
    Mutation: {
      createMergeRequestNote: (_p, { projectId, mergeRequestId, body }, { principal }) => {
        requireUser(principal);
        return notes.createMergeRequestNote(principal, projectId, mergeRequestId, body);
      },
      updateMergeRequestNote: (_p, { projectId, mergeRequestId, noteId, body }, { principal }) => {
        requireUser(principal);
        return notes.updateMergeRequestNote(principal, projectId, mergeRequestId, noteId, body);
      },
    },
  };
}
