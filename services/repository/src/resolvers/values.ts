import { publicEnum } from '@hub/common';
import type { BranchResolvers, CommitResolvers, TreeEntryResolvers } from '../generated/graphql';

export const branchResolvers: BranchResolvers = {
  protected: async (branch, _args, { loaders }) =>
    (await loaders.branchProtection.load(branch.projectId)).protected.includes(branch.name),
};

/**
 * GitLab 7.14's Commit#title: the first line; a first line over 100 characters is cut to 80 and
 * an ellipsis; no message at all reads "--no commit message".
 */
export function commitTitle(message: string): string {
  const text = message.trim() === '' ? '' : message;
  if (text === '') return '--no commit message';
  const end = text.indexOf('\n');
  const first = end < 0 ? text : text.slice(0, end);
  return first.length > 100 ? `${first.slice(0, 80)}…` : first;
}

const treeEntryTypeOf = publicEnum('TreeEntryType', { tree: 'TREE', blob: 'BLOB', commit: 'COMMIT' } as const);

/** A folder entry's type, in the public enum and as git (and v3) spell it. */
export const treeEntryResolvers: TreeEntryResolvers = {
  type: (entry) => treeEntryTypeOf(entry.type),
  v3Type: (entry) => entry.type,
};

/** GitLab's commit fields from the worker's Commit. */
export const commitResolvers: CommitResolvers = {
  // GitLab 7.14's Commit#short_id: gitlab_git's id[0..7], eight characters.
  shortId: (c) => c.id.slice(0, 8),
  title: (c) => commitTitle(c.message),
  authorName: (c) => c.author?.name ?? '',
  authorEmail: (c) => c.author?.email ?? '',
  authoredDate: (c) => c.author?.date ?? '',
  committerName: (c) => c.committer?.name ?? '',
  committerEmail: (c) => c.committer?.email ?? '',
  committedDate: (c) => c.committer?.date ?? '',
};
