import { authorize, pageWindow } from '@hub/common';
import { findNote, listNotes } from '../db/notes';
import type { MergeRequestResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const target = (mr: { id: number; projectId?: number }) => ({ projectId: mr.projectId!, noteableType: 'MergeRequest' as const, noteableId: mr.id });

export const createMergeRequestResolvers = ({ sql }: ResolverDeps): MergeRequestResolvers => ({
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
  upvotes: async (mr, _args, { loaders }) => (await loaders.mergeRequestVotes.load(mr.id)).up,
  downvotes: async (mr, _args, { loaders }) => (await loaders.mergeRequestVotes.load(mr.id)).down,
});
