import { pageWindow } from '@hub/common';
import type { Diff__Output } from '@hub/protos';
import type { RepositoryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** The worker's empty mode ("no file on this side") as null. */
const diffValue = (d: Diff__Output) => ({ ...d, aMode: d.aMode || null, bMode: d.bMode || null });

export const createRepositoryResolvers = ({ git }: ResolverDeps): RepositoryResolvers => ({
  branches: async (repo) => (await git.listBranches(repo.projectId)).map((b) => ({ projectId: repo.projectId, name: b.name, commit: b.commit! })),
  branch: async (repo, { name }) => {
    const found = await git.findBranch(repo.projectId, name);
    return found ? { projectId: repo.projectId, name: found.name, commit: found.commit! } : null;
  },
  // GitLab listed tags by name in reverse.
  tags: async (repo) =>
    (await git.listTags(repo.projectId))
      .filter((t) => t.commit)
      .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
      .map((t) => ({ name: t.name, message: t.annotated ? t.message : null, commit: t.commit! })),
  // The default branch by its full name: a tag of the same name must not stand in for it.
  tree: (repo, { ref, path }) => git.tree(repo.projectId, ref ?? `refs/heads/${repo.defaultBranch}`, path ?? ''),
  compare: async (repo, { from, to }) => {
    const result = await git.compare(repo.projectId, from, to);
    return {
      commit: result.commit ?? null,
      commits: result.commits,
      diffs: result.diffs.map(diffValue),
      compareTimeout: result.timedOut,
      compareSameRef: result.sameRef,
    };
  },
  contributors: (repo) => git.contributors(repo.projectId),
  commit: (repo, { ref }) => git.findCommit(repo.projectId, ref),
  commits: async (repo, { ref, page, perPage }) => {
    const window = pageWindow(page, perPage);
    // The default branch by its full name, as for the tree.
    const result = await git.listCommits(repo.projectId, ref ?? `refs/heads/${repo.defaultBranch}`, window.offset, window.perPage);
    return { nodes: result.commits, total: result.total };
  },
  commitDiff: async (repo, { ref }) => {
    const result = await git.commitDiff(repo.projectId, ref);
    return result ? result.diffs.map(diffValue) : null;
  },
});
