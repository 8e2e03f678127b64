import { authorize } from '@hub/common';
import type { MergeRequestResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { noteListOf, noteOf } from './Noteable';

const target = (mr: { id: number; projectId?: number }) => ({
  projectId: mr.projectId!,
  noteableType: 'MergeRequest' as const,
  noteableId: mr.id,
});

export const createMergeRequestResolvers = (deps: ResolverDeps): MergeRequestResolvers => {
  const list = noteListOf(deps);
  const one = noteOf(deps);
  return {
    __resolveReference: (reference) => ({
      id: reference.databaseId,
      projectId: 'projectId' in reference ? reference.projectId : undefined,
    }),
    databaseId: (mr) => mr.id,
    notes: async (mr, args, { principal, loaders }) => {
      authorize(await loaders.access.load(mr.projectId!), principal, 'read_project');
      return list(target(mr), args);
    },
    note: async (mr, { id }, { principal, loaders }) => {
      authorize(await loaders.access.load(mr.projectId!), principal, 'read_project');
      return one(target(mr), id);
    },
    upvotes: async (mr, _args, { loaders }) => (await loaders.mergeRequestVotes.load(mr.id)).up,
    downvotes: async (mr, _args, { loaders }) => (await loaders.mergeRequestVotes.load(mr.id)).down,
  };
};
