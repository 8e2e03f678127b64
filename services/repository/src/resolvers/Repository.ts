import { pageWindow } from '@hub/common';
import type { Diff__Output } from '@hub/protos';
import type { RepositoryReadsResolvers, RepositoryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import {
  branchConnection,
  commitConnection,
  contributorConnection,
  tagConnection,
  treeConnection,
  type CompareValue,
} from './lists';

/** The worker's empty mode ("no file on this side") as null. */
const diffValue = (d: Diff__Output) => ({ ...d, aMode: d.aMode || null, bMode: d.bMode || null });

type Git = ResolverDeps['git'];

async function branchesOf(git: Git, projectId: number) {
  return (await git.listBranches(projectId)).map((b) => ({ projectId, name: b.name, commit: b.commit! }));
}

async function branchOf(git: Git, projectId: number, name: string) {
  const found = await git.findBranch(projectId, name);
  return found ? { projectId, name: found.name, commit: found.commit! } : null;
}

/** GitLab listed tags by name in reverse. */
async function tagsOf(git: Git, projectId: number) {
  return (await git.listTags(projectId))
    .filter((t) => t.commit)
    .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
    .map((t) => ({ name: t.name, message: t.annotated ? t.message : null, commit: t.commit! }));
}

async function compareOf(git: Git, projectId: number, from: string, to: string): Promise<CompareValue> {
  const result = await git.compare(projectId, from, to);
  return {
    projectId,
    from,
    to,
    commit: result.commit ?? null,
    commits: result.commits,
    diffs: result.diffs.map(diffValue),
    compareTimeout: result.timedOut,
    compareSameRef: result.sameRef,
  };
}

/** The facade's page of a history by number (RepositoryReads, which has no cursors). */
async function commitsOf(git: Git, projectId: number, ref: string, page: number, perPage: number) {
  const window = pageWindow(page, perPage);
  const result = await git.listCommits(projectId, ref, window.offset, window.perPage);
  return { nodes: result.commits, total: result.total };
}

async function commitDiffOf(git: Git, projectId: number, ref: string) {
  const result = await git.commitDiff(projectId, ref);
  return result ? result.diffs.map(diffValue) : null;
}

/** The default branch by its full name: a tag of the same name must not stand in for it. */
const defaultRef = (repo: { defaultBranch: string }, ref: string | null | undefined) =>
  ref ?? `refs/heads/${repo.defaultBranch}`;

export const createRepositoryResolvers = ({ git, cursors }: ResolverDeps): RepositoryResolvers => ({
  branches: (repo, args) => branchConnection(cursors, repo.projectId, args, branchesOf(git, repo.projectId)),
  v3Branches: (repo) => branchesOf(git, repo.projectId),
  branch: (repo, { name }) => branchOf(git, repo.projectId, name),
  tags: (repo, args) => tagConnection(cursors, repo.projectId, args, tagsOf(git, repo.projectId)),
  v3Tags: (repo) => tagsOf(git, repo.projectId),
  tree: (repo, { ref, path, ...args }) =>
    treeConnection(cursors, repo.projectId, args, git.tree(repo.projectId, defaultRef(repo, ref), path ?? '')),
  v3Tree: (repo, { ref, path }) => git.tree(repo.projectId, defaultRef(repo, ref), path ?? ''),
  compare: (repo, { from, to }) => compareOf(git, repo.projectId, from, to),
  contributors: (repo, args) => contributorConnection(cursors, repo.projectId, args, git.contributors(repo.projectId)),
  v3Contributors: (repo) => git.contributors(repo.projectId),
  commit: (repo, { ref }) => git.findCommit(repo.projectId, ref),
  commits: (repo, { ref, ...args }) => commitConnection(git, cursors, repo.projectId, defaultRef(repo, ref), args),
  commitDiff: (repo, { ref }) => commitDiffOf(git, repo.projectId, ref),
});

/** The reads that name their refs, answered as Repository answers them. */
export const createRepositoryReadsResolvers = ({ git }: ResolverDeps): RepositoryReadsResolvers => ({
  storage: (reads) => git.storageOf(reads.projectId),
  branches: (reads) => branchesOf(git, reads.projectId),
  branch: (reads, { name }) => branchOf(git, reads.projectId, name),
  tags: (reads) => tagsOf(git, reads.projectId),
  contributors: (reads) => git.contributors(reads.projectId),
  tree: (reads, { ref, path }) => git.tree(reads.projectId, ref, path ?? ''),
  identifiedTree: (reads, { ref, path, unlessId }) =>
    git.identifiedTree(reads.projectId, ref, path ?? '', unlessId ?? null),
  compare: (reads, { from, to }) => compareOf(git, reads.projectId, from, to),
  commit: (reads, { ref }) => git.findCommit(reads.projectId, ref),
  commits: (reads, { ref, page, perPage }) => commitsOf(git, reads.projectId, ref, page, perPage),
  commitDiff: (reads, { ref }) => commitDiffOf(git, reads.projectId, ref),
});
