import type { Contributor, DiffServiceHandlers } from '@hub/protos';
import { existingRepo, headBranch, isEmptyRepo, runGit } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/**
 * Authors of the default branch's history with their commit, addition and deletion counts, most
 * commits first (GitLab grouped by email; a later name of the same email wins).
 */
export const ListContributors = (deps: WorkerDeps): DiffServiceHandlers['ListContributors'] =>
  unary('ListContributors', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    if (await isEmptyRepo(repo)) return { contributors: [] };
    const branch = await headBranch(repo);
    const log = await runGit(repo, ['log', '--no-merges', '--numstat', '--format=%x00%aN%x00%aE', '--end-of-options', `refs/heads/${branch}`, '--']);
    if (log.code !== 0) return { contributors: [] };
    const byEmail = new Map<string, Contributor>();
    // Each commit prints NUL name NUL email, then its numstat lines: ['', name, email\nstats..., name, ...].
    const parts = log.stdout.toString('utf8').split('\0');
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const name = parts[i];
      const [email, ...stats] = parts[i + 1].split('\n');
      const current = byEmail.get(email.toLowerCase()) ?? { name, email, commits: 0, additions: 0, deletions: 0 };
      current.commits! += 1;
      for (const line of stats) {
        const [added, deleted] = line.split('\t');
        if (/^\d+$/.test(added ?? '')) current.additions! += Number(added);
        if (/^\d+$/.test(deleted ?? '')) current.deletions! += Number(deleted);
      }
      byEmail.set(email.toLowerCase(), current);
    }
    const contributors = [...byEmail.values()].sort((a, b) => b.commits! - a.commits! || a.name!.localeCompare(b.name!));
    return { contributors };
  });
