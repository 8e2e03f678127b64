import { createKnownEventReader, type ChangeHandler, type Logger } from '@hub/common';

/** A commit named by its full object id: what it names never changes, unlike a branch or tag. */
const COMMIT_ID = /^[0-9a-f]{40}$/;

/** How many folders' ids a process keeps (about 150 bytes each). */
const KEPT = 20_000;

/**
 * The tree ids of folders at commits named by their full id, kept per project: the worker is asked
 * once per folder and commit, not on every request (a root tree read one at a time cost this
 * service a gRPC call, 0.35-0.5 ms of its CPU, and the worker's reader a round trip). Both a
 * folder's id and the absence of a folder at a commit are kept; a commit the repository lacks is
 * not, as a push may bring it. A push can leave commits unreachable, which git's automatic gc
 * may later prune (a tag's deletion too), and a deleted project's repository is removed: each drops
 * what is kept for the project, on every replica.
 */
export function createTreeIds(options: { kept?: number } = {}) {
  const kept = options.kept ?? KEPT;
  const byProject = new Map<number, Map<string, string | null>>();
  let size = 0;

  const forget = (projectId: number) => {
    size -= byProject.get(projectId)?.size ?? 0;
    byProject.delete(projectId);
  };

  return {
    /** The kept answer for `ref` and `path` (undefined when none is kept, or `ref` is no full commit id). */
    get(projectId: number, ref: string, path: string): string | null | undefined {
      return COMMIT_ID.test(ref) ? byProject.get(projectId)?.get(`${ref}:${path}`) : undefined;
    },

    /** Keeps what the repository answered for a folder at a commit named by its full id. */
    set(projectId: number, ref: string, path: string, treeId: string | null): void {
      if (!COMMIT_ID.test(ref)) return;
      if (size >= kept) {
        byProject.clear();
        size = 0;
      }
      let folders = byProject.get(projectId);
      if (!folders) byProject.set(projectId, (folders = new Map()));
      const key = `${ref}:${path}`;
      if (!folders.has(key)) size++;
      folders.set(key, treeId);
    },

    forget,

    /** Drops a project's answers on its pushes and its deletion, whichever replica handled them. */
    changeHandler(logger: Logger): ChangeHandler {
      const read = createKnownEventReader(logger);
      return {
        services: ['git_worker', 'projects'],
        onEvent: (event) => {
          const known = read(event);
          if (
            known?.key === 'git_worker:push' ||
            known?.key === 'git_worker:tag_push' ||
            known?.key === 'projects:project.deleted'
          )
            forget(known.payload.project_id);
        },
      };
    },

    /** Folders kept, for tests. */
    get size(): number {
      return size;
    },
  };
}

export type TreeIds = ReturnType<typeof createTreeIds>;
