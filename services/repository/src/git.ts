import { badRequest, DomainError, ErrorCode } from '@hub/common';
import {
  gitDomainError,
  gitFailureOf,
  type Commit,
  type CommitFileRequest,
  type Pusher,
  type GitErrorKind,
  type GitShards,
  type NotFoundNouns,
} from '@hub/protos';
import type { TreeIds } from './tree-ids';

export type CommitValue = Commit;
/** A folder entry as the worker lists it (type: tree, blob or commit). */
export interface TreeEntryValue {
  id: string;
  name: string;
  type: string;
  mode: string;
}
export interface BranchValue {
  projectId: number;
  name: string;
  commit: Commit;
}
export interface TagValue {
  name: string;
  message: string | null;
  commit: Commit;
}

const kindOf = (error: unknown) => gitFailureOf(error)?.kind;
const oneOf = (error: unknown, kinds: GitErrorKind[]) => kinds.includes(kindOf(error) as GitErrorKind);

/** GitLab's 405 wording for each refused part of a tag create. */
const TAG_REFUSALS: Record<string, string> = {
  tag_name: 'Tag name invalid',
  ref: 'Invalid reference name',
  message: 'Tag message invalid',
};

/**
 * The git worker calls this service makes, with errors already in API terms, each sent to the
 * shard holding the project's repository (a fork's source on another shard is fetched from there).
 */
export function createGit(shards: GitShards, options: { treeIds?: TreeIds } = {}) {
  const api = <T>(work: Promise<T>, nouns?: NotFoundNouns): Promise<T> =>
    work.catch((error) => Promise.reject(gitDomainError(error, nouns)));
  /** A repository the worker has not made yet lists as empty. */
  const orEmpty = async <T>(work: Promise<T>, empty: T): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (oneOf(error, ['REPOSITORY_NOT_FOUND'])) return empty;
      throw gitDomainError(error);
    }
  };
  const repository = (projectId: number) => ({ projectId });
  const ref = shards.unary('ref');
  const blob = shards.unary('blob');
  const diff = shards.unary('diff');
  const repos = shards.unary('repository');
  const commits = shards.unary('commit');
  /**
   * A folder's tree id, found without reading the folder (null for no folder there); kept
   * (treeIds) for a commit named by its full id.
   */
  const treeIdOf = async (projectId: number, target: string, path: string): Promise<string | null> => {
    const known = options.treeIds?.get(projectId, target, path);
    if (known !== undefined) return known;
    let treeId: string | null;
    try {
      treeId = (await blob.GetTreeEntries({ repository: repository(projectId), ref: target, path, idOnly: true }))
        .treeId;
    } catch (error) {
      if (!oneOf(error, ['PATH_NOT_FOUND'])) throw gitDomainError(error, { REF_NOT_FOUND: 'Tree' });
      treeId = null;
    }
    options.treeIds?.set(projectId, target, path, treeId);
    return treeId;
  };

  return {
    /** The shard of the project's repository, as every call here is routed. */
    storageOf: (projectId: number) => shards.storageOf(projectId),
    listBranches: (projectId: number) =>
      orEmpty(
        ref.ListBranches({ repository: repository(projectId) }).then((r) => r.branches),
        [],
      ),
    findBranch: async (projectId: number, name: string) => {
      try {
        return await ref.FindBranch({ repository: repository(projectId), name });
      } catch (error) {
        if (oneOf(error, ['REF_NOT_FOUND', 'REPOSITORY_NOT_FOUND', 'INVALID_ARGUMENT'])) return null;
        throw gitDomainError(error);
      }
    },
    listTags: (projectId: number) =>
      orEmpty(
        ref.ListTags({ repository: repository(projectId) }).then((r) => r.tags),
        [],
      ),
    /** The v3 spec answers any refusal (bad name, ref naming no commit, existing tag) with 405 and the reason. */
    createTag: async (
      projectId: number,
      name: string,
      target: string,
      message: string,
      tagger: { name: string; email: string },
      pusher: Pusher,
    ) => {
      try {
        return await ref.CreateTag({ repository: repository(projectId), name, ref: target, message, tagger, pusher });
      } catch (error) {
        const failure = gitFailureOf(error);
        if (!failure) throw gitDomainError(error);
        const reason =
          failure.kind === 'ALREADY_EXISTS'
            ? 'Tag already exists' // GitLab 7.14's words (8.x named the tag)
            : failure.kind === 'INVALID_ARGUMENT'
              ? (TAG_REFUSALS[failure.field] ?? TAG_REFUSALS.tag_name)
              : TAG_REFUSALS.ref; // an empty repository or a ref naming nothing
        throw new DomainError(ErrorCode.METHOD_NOT_ALLOWED, reason);
      }
    },
    /** GitLab 7.14's CreateBranchService refusals, all 400. */
    createBranch: async (projectId: number, name: string, target: string, pusher: Pusher) => {
      try {
        return await ref.CreateBranch({ repository: repository(projectId), name, ref: target, pusher });
      } catch (error) {
        const kind = kindOf(error);
        if (kind === 'INVALID_ARGUMENT' && gitFailureOf(error)?.field === 'branch_name')
          throw badRequest('Branch name invalid');
        if (kind === 'ALREADY_EXISTS') throw badRequest('Branch already exists');
        if (kind === 'INVALID_ARGUMENT' || kind === 'REF_NOT_FOUND' || kind === 'EMPTY_REPOSITORY')
          throw badRequest('Invalid reference name');
        throw gitDomainError(error);
      }
    },
    /** A branch gone meanwhile (a concurrent delete) is answered as one that was never there. */
    deleteBranch: async (projectId: number, name: string, pusher: Pusher) => {
      try {
        await ref.DeleteBranch({ repository: repository(projectId), name, pusher });
      } catch (error) {
        if (oneOf(error, ['REF_NOT_FOUND'])) throw new DomainError(ErrorCode.NOT_FOUND, 'No such branch');
        throw gitDomainError(error);
      }
    },
    /** The branch HEAD names (GitLab's root_ref). */
    headBranch: (projectId: number) =>
      api(repos.RepositoryInfo({ repository: repository(projectId) })).then((info) => info.defaultBranch),
    findCommit: async (projectId: number, target: string) => {
      try {
        return await ref.FindCommit({ repository: repository(projectId), ref: target });
      } catch (error) {
        if (oneOf(error, ['REF_NOT_FOUND', 'REPOSITORY_NOT_FOUND'])) return null;
        throw gitDomainError(error);
      }
    },
    /** An unknown ref is 404 'Tree'; a path that names no folder lists nothing, as gitlab_git's Tree.where answered. */
    tree: async (projectId: number, target: string, path: string) => {
      try {
        return (await blob.GetTreeEntries({ repository: repository(projectId), ref: target, path })).entries;
      } catch (error) {
        if (oneOf(error, ['PATH_NOT_FOUND'])) return [];
        throw gitDomainError(error, { REF_NOT_FOUND: 'Tree' });
      }
    },
    /**
     * Tree's answer with the tree object's id (null with no entries where `tree` lists nothing);
     * the id alone when it is `unlessId`.
     */
    identifiedTree: async (
      projectId: number,
      target: string,
      path: string,
      unlessId: string | null,
    ): Promise<{ id: string | null; entries: TreeEntryValue[] | null }> => {
      if (unlessId !== null) {
        const id = await treeIdOf(projectId, target, path);
        if (id === null) return { id, entries: [] };
        if (id === unlessId) return { id, entries: null };
      }
      let answer: { id: string | null; entries: TreeEntryValue[] };
      try {
        const { entries, treeId } = await blob.GetTreeEntries({ repository: repository(projectId), ref: target, path });
        answer = { id: treeId, entries };
      } catch (error) {
        if (!oneOf(error, ['PATH_NOT_FOUND'])) throw gitDomainError(error, { REF_NOT_FOUND: 'Tree' });
        answer = { id: null, entries: [] };
      }
      options.treeIds?.set(projectId, target, path, answer.id);
      return answer;
    },
    /** A ref naming no commit compares as nothing (gitlab_git's Compare: no commits, no diffs, not the same). */
    compare: async (projectId: number, from: string, to: string) => {
      try {
        return await diff.CompareRefs({ repository: repository(projectId), from, to });
      } catch (error) {
        if (oneOf(error, ['REF_NOT_FOUND', 'REPOSITORY_NOT_FOUND', 'EMPTY_REPOSITORY']))
          return { commit: null, commits: [], diffs: [], timedOut: false, sameRef: false };
        throw gitDomainError(error);
      }
    },
    contributors: (projectId: number) =>
      orEmpty(
        diff.ListContributors({ repository: repository(projectId) }).then((r) => r.contributors),
        [],
      ),
    createRepository: (projectId: number, defaultBranch: string) =>
      api(repos.CreateRepository({ repository: repository(projectId), defaultBranch })),
    deleteRepository: (projectId: number) => api(repos.DeleteRepository({ repository: repository(projectId) })),
    forkRepository: (projectId: number, sourceId: number) =>
      api(repos.ForkRepository({ repository: repository(projectId), source: repository(sourceId) })),
    importRepository: (projectId: number, url: string) =>
      api(repos.ImportRepository({ repository: repository(projectId), url })),
    /** A ref naming nothing lists no commits, as gitlab_git's log answered. */
    listCommits: async (projectId: number, target: string, offset: number, limit: number) => {
      try {
        return await commits.ListCommits({ repository: repository(projectId), ref: target, offset, limit });
      } catch (error) {
        if (oneOf(error, ['REF_NOT_FOUND', 'REPOSITORY_NOT_FOUND', 'EMPTY_REPOSITORY']))
          return { commits: [], total: 0 };
        throw gitDomainError(error);
      }
    },
    commitDiff: async (projectId: number, target: string) => {
      try {
        return await commits.CommitDiff({ repository: repository(projectId), ref: target });
      } catch (error) {
        if (oneOf(error, ['REF_NOT_FOUND', 'REPOSITORY_NOT_FOUND'])) return null;
        throw gitDomainError(error);
      }
    },
    /** The worker's refusal kinds as they are: the caller words them per action. */
    commitFile: (request: CommitFileRequest) => commits.CommitFile(request),
  };
}

export type Git = ReturnType<typeof createGit>;
