import type { BranchResolvers, CommitResolvers } from '../generated/graphql';

export const branchResolvers: BranchResolvers = {
  protected: async (branch, _args, { loaders }) => (await loaders.protectedBranches.load(branch.projectId)).includes(branch.name),
};

/** GitLab's commit fields from the worker's Commit. */
export const commitResolvers: CommitResolvers = {
  // GitLab's short id: the first 11 characters.
  shortId: (c) => c.id.slice(0, 11),
  title: (c) => c.message.split('\n')[0],
  authorName: (c) => c.author?.name ?? '',
  authorEmail: (c) => c.author?.email ?? '',
  authoredDate: (c) => c.author?.date ?? '',
  committerName: (c) => c.committer?.name ?? '',
  committerEmail: (c) => c.committer?.email ?? '',
  committedDate: (c) => c.committer?.date ?? '',
};
