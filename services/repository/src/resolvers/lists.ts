import {
  compareKeysAsText,
  connectionOf,
  connectionResolvers,
  DomainError,
  keysetPageOf,
  ErrorCode,
  pagedList,
  type ConnectionArgs,
  type ConnectionParent,
  type CursorKey,
  type Cursors,
  type ListArgs,
} from '@hub/common';
import type { Commit, Contributor__Output, Diff__Output } from '@hub/protos';
import type { BranchValue, Git, TagValue, TreeEntryValue } from '../git';
import type {
  BranchConnectionResolvers,
  CommitConnectionResolvers,
  CompareResolvers,
  ContributorConnectionResolvers,
  TagConnectionResolvers,
  TreeEntryConnectionResolvers,
} from '../generated/graphql';

// The repository's lists as connections. Git answers each list whole (branches, tags, a folder,
// contributors, a comparison), so those page in memory with keys of their own order; a history
// can be long, so it pages by position in the history of one commit, which never changes.

export type BranchConnectionParent = ConnectionParent<BranchValue>;
export type TagConnectionParent = ConnectionParent<TagValue>;
export type TreeEntryConnectionParent = ConnectionParent<TreeEntryValue>;
export type ContributorConnectionParent = ConnectionParent<Contributor__Output>;
export type CommitConnectionParent = ConnectionParent<Commit>;

/** A comparison as Compare resolves it: what the worker found, and what it compared. */
export interface CompareValue {
  projectId: number;
  from: string;
  to: string;
  commit: Commit | null;
  commits: Commit[];
  diffs: Array<Omit<Diff__Output, 'aMode' | 'bMode'> & { aMode: string | null; bMode: string | null }>;
  compareTimeout: boolean;
  compareSameRef: boolean;
}

/** A list git answers whole, as a connection: sorted by `compare` over `keyOf`, paged by cursors. */
export async function wholeListConnection<T extends object>(
  cursors: Cursors,
  ordering: string,
  args: ConnectionArgs,
  items: Promise<readonly T[]> | readonly T[],
  keyOf: (item: T) => CursorKey,
  compare: (a: CursorKey, b: CursorKey) => number = compareKeysAsText,
): Promise<ConnectionParent<T>> {
  const window = cursors.window(ordering, args);
  const all = await items;
  const { rows, beyond } = keysetPageOf(all, keyOf, compare, window);
  const page = connectionOf(rows, window, beyond, (row) => cursors.encode(ordering, row.sortKey));
  return { ...page, total: () => all.length };
}

/** GitLab listed tags by name in reverse. */
const reversed = (a: CursorKey, b: CursorKey) => compareKeysAsText(b, a);

/** Folders, then files, then submodules, each by name. */
const TREE_GROUPS: Record<string, string> = { tree: '0', blob: '1', commit: '2' };

/** Most commits first, then by name, then by email (the grouping key, so unique). */
const contributorOrder = (a: CursorKey, b: CursorKey) =>
  Number(b[0]) - Number(a[0]) || compareKeysAsText(a.slice(1), b.slice(1));

export const branchConnection = (
  cursors: Cursors,
  projectId: number,
  args: ConnectionArgs,
  branches: Promise<BranchValue[]>,
) => wholeListConnection(cursors, `branches:${projectId}`, args, branches, (branch) => [branch.name]);

export const tagConnection = (cursors: Cursors, projectId: number, args: ConnectionArgs, tags: Promise<TagValue[]>) =>
  wholeListConnection(cursors, `tags:${projectId}`, args, tags, (tag) => [tag.name], reversed);

export const treeConnection = (
  cursors: Cursors,
  projectId: number,
  args: ConnectionArgs,
  entries: Promise<TreeEntryValue[]>,
) =>
  wholeListConnection(cursors, `tree:${projectId}`, args, entries, (entry) => [
    TREE_GROUPS[entry.type] ?? '3',
    entry.name,
  ]);

export const contributorConnection = (
  cursors: Cursors,
  projectId: number,
  args: ConnectionArgs,
  contributors: Promise<Contributor__Output[]>,
) =>
  wholeListConnection(
    cursors,
    `contributors:${projectId}`,
    args,
    contributors,
    (c) => [String(c.commits), c.name, c.email.toLowerCase()],
    contributorOrder,
  );

/** A comparison's commits, by their place in it (a comparison of two commits never changes). */
export const compareCommitConnection = (cursors: Cursors, compare: CompareValue, args: ConnectionArgs) =>
  wholeListConnection(
    cursors,
    `compare:${compare.projectId}:${compare.from}:${compare.to}`,
    args,
    compare.commits.map((commit, place) => ({ commit, place })),
    ({ place }) => [String(place).padStart(6, '0')],
  ).then(({ edges, nodes, ...rest }) => ({
    ...rest,
    edges: edges?.map(({ cursor, node }) => ({ cursor, node: node.commit })) ?? null,
    nodes: nodes.map((node) => node.commit),
  }));

const SHA = /^[0-9a-f]{40}$/;

/**
 * A ref's history, newest first: by page number for the facade, or by cursors that name the
 * commit the first page started from and a place in its history, which no push can change.
 */
export function commitConnection(
  git: Git,
  cursors: Cursors,
  projectId: number,
  ref: string,
  args: ListArgs,
): Promise<CommitConnectionParent> {
  const ordering = `commits:${projectId}`;
  let pinned: string | null = null;
  const placeOf = (key: CursorKey | null, argument: string) => {
    if (!key) return null;
    const [sha, place] = key;
    if (!SHA.test(sha ?? '') || !/^\d{1,9}$/.test(place ?? ''))
      throw new DomainError(ErrorCode.BAD_USER_INPUT, `"${argument}" is not a cursor of this list`, { argument });
    if (pinned !== null && pinned !== sha)
      throw new DomainError(ErrorCode.BAD_USER_INPUT, '"after" and "before" come from different histories', {
        argument,
      });
    pinned = sha;
    return Number(place);
  };
  return pagedList(cursors, args, {
    ordering,
    byNumber: async (window) => {
      const { commits, total } = await git.listCommits(projectId, ref, window.offset, window.perPage);
      return { rows: commits, total };
    },
    byKeyset: async (window) => {
      const after = placeOf(window.after, 'after');
      const before = placeOf(window.before, 'before');
      pinned ??= (await git.findCommit(projectId, ref))?.id ?? null;
      if (pinned === null) return { rows: [], beyond: false };
      const sha = pinned;
      // The places [first, last) of the history this page may read from.
      const first = after === null ? 0 : after + 1;
      let last = before;
      if (last === null && window.from === 'end') last = (await git.listCommits(projectId, sha, 0, 1)).total;
      const offset = window.from === 'start' ? first : Math.max(first, (last as number) - (window.limit + 1));
      const limit = Math.min(window.limit + 1, (last ?? Infinity) - offset);
      const { commits } = limit > 0 ? await git.listCommits(projectId, sha, offset, limit) : { commits: [] };
      return {
        rows: commits.map((commit, i) => ({ ...commit, sortKey: [sha, String(offset + i)] })),
        // A cursor's own commit is in the history it names, which never changes: commits lie past it.
        beyond: window.from === 'start' ? after !== null : before !== null,
      };
    },
    count: async () => (await git.listCommits(projectId, pinned ?? ref, 0, 1)).total,
  });
}

export const branchConnectionResolvers: BranchConnectionResolvers = connectionResolvers;
export const tagConnectionResolvers: TagConnectionResolvers = connectionResolvers;
export const treeEntryConnectionResolvers: TreeEntryConnectionResolvers = connectionResolvers;
export const contributorConnectionResolvers: ContributorConnectionResolvers = connectionResolvers;
export const commitConnectionResolvers: CommitConnectionResolvers = connectionResolvers;

export const createCompareResolvers = (cursors: Cursors): CompareResolvers => ({
  commits: (compare, args) => compareCommitConnection(cursors, compare, args),
  v3Commits: (compare) => compare.commits,
});
