import { status } from '@grpc/grpc-js';
import { DomainError, ErrorCode, invalid, notFound } from '@hub/common';
import { errorDetailOf, promised, type Commit, type GitClients } from '@hub/protos';

export type CommitValue = Commit;
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

/** A git worker failure as the API error it means; anything unexpected stays unexpected. */
export function toDomainError(error: unknown): Error {
  const detail = errorDetailOf(error);
  if (detail) {
    switch (detail.kind) {
      case 'INVALID_ARGUMENT':
        return invalid({ [detail.field || 'ref']: ['is invalid'] });
      case 'ALREADY_EXISTS':
        return new DomainError(ErrorCode.CONFLICT, detail.message);
      case 'MERGE_CONFLICT':
        return new DomainError(ErrorCode.METHOD_NOT_ALLOWED, detail.message);
      default:
        return new DomainError(ErrorCode.NOT_FOUND, detail.message.startsWith('404') ? detail.message : notFound().message);
    }
  }
  const code = (error as { code?: number }).code;
  if (code === status.UNAVAILABLE || code === status.DEADLINE_EXCEEDED) return new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable');
  return error as Error;
}

const kindOf = (error: unknown) => errorDetailOf(error)?.kind;

/** The git worker calls this service makes, with errors already in API terms. */
export function createGit(clients: GitClients) {
  const api = <T>(work: Promise<T>): Promise<T> => work.catch((error) => Promise.reject(toDomainError(error)));
  /** A repository the worker has not made yet lists as empty. */
  const orEmpty = async <T>(work: Promise<T>, empty: T): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (error instanceof DomainError && error.message === '404 Repository Not Found') return empty;
      throw error;
    }
  };
  const repository = (projectId: number) => ({ projectId });
  const ref = promised(clients.ref);
  const blob = promised(clients.blob);
  const diff = promised(clients.diff);
  const repos = promised(clients.repository);

  return {
    listBranches: (projectId: number) => orEmpty(api(ref.ListBranches({ repository: repository(projectId) })).then((r) => r.branches), []),
    findBranch: async (projectId: number, name: string) => {
      try {
        return await ref.FindBranch({ repository: repository(projectId), name });
      } catch (error) {
        if (['REF_NOT_FOUND', 'REPOSITORY_NOT_FOUND', 'INVALID_ARGUMENT'].includes(kindOf(error) ?? '')) return null;
        throw toDomainError(error);
      }
    },
    listTags: (projectId: number) => orEmpty(api(ref.ListTags({ repository: repository(projectId) })).then((r) => r.tags), []),
    /** The v3 spec answers any refusal (bad name, ref naming no commit, existing tag) with 405 and the reason. */
    createTag: async (projectId: number, name: string, target: string, message: string, tagger: { name: string; email: string }) => {
      try {
        return await ref.CreateTag({ repository: repository(projectId), name, ref: target, message, tagger });
      } catch (error) {
        const detail = errorDetailOf(error);
        if (detail) throw new DomainError(ErrorCode.METHOD_NOT_ALLOWED, detail.kind === 'REPOSITORY_NOT_FOUND' ? 'Invalid reference name' : detail.message);
        throw toDomainError(error);
      }
    },
    findCommit: async (projectId: number, target: string) => {
      try {
        return await ref.FindCommit({ repository: repository(projectId), ref: target });
      } catch (error) {
        if (['REF_NOT_FOUND', 'REPOSITORY_NOT_FOUND'].includes(kindOf(error) ?? '')) return null;
        throw toDomainError(error);
      }
    },
    tree: (projectId: number, target: string, path: string) =>
      api(blob.GetTreeEntries({ repository: repository(projectId), ref: target, path })).then((r) => r.entries),
    compare: (projectId: number, from: string, to: string) => api(diff.CompareRefs({ repository: repository(projectId), from, to })),
    contributors: (projectId: number) => orEmpty(api(diff.ListContributors({ repository: repository(projectId) })).then((r) => r.contributors), []),
    createRepository: (projectId: number, defaultBranch: string) => api(repos.CreateRepository({ repository: repository(projectId), defaultBranch })),
    deleteRepository: (projectId: number) => api(repos.DeleteRepository({ repository: repository(projectId) })),
    forkRepository: (projectId: number, sourceId: number) => api(repos.ForkRepository({ repository: repository(projectId), source: repository(sourceId) })),
    importRepository: (projectId: number, url: string) => api(repos.ImportRepository({ repository: repository(projectId), url })),
  };
}

export type Git = ReturnType<typeof createGit>;
