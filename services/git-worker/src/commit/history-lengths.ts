import { createPerCommitCache } from '../git/per-commit-cache';
import { gitText, type StartGit } from '../git/run';

/** `git rev-list --count`: the commits reachable from `commit`, one walk of the whole history. */
const countHistory = async (repo: string, commit: string, start?: StartGit) =>
  Number((await gitText(repo, ['rev-list', '--count', '--end-of-options', commit], { start })).trim());

/**
 * How many commits the history of a commit holds: a commits page's total. A history never changes
 * under a commit id, so each count is kept per repository and commit (the least recently used
 * going first past `max`), and one walk serves everyone asking for it at once: without it every
 * page walked the whole history again (13 ms for the bench's 2,500 commits, and growing with it).
 */
export function createHistoryLengths(
  options: { max?: number; count?: (repo: string, commit: string) => Promise<number>; start?: StartGit } = {},
) {
  const max = options.max ?? 4096;
  const count = options.count ?? ((repo: string, commit: string) => countHistory(repo, commit, options.start));
  const lengths = createPerCommitCache<number>({ maxEntries: max });
  return { of: (repo: string, commit: string): Promise<number> => lengths.of(repo, commit, () => count(repo, commit)) };
}

export type HistoryLengths = ReturnType<typeof createHistoryLengths>;
