import { gitWorkerEvents, type Sql } from '@hub/common';
import type { Commit } from '@hub/protos';
import { parseCommit, parseTag, readCommits, readObjects, tagMessage } from '../git/objects';
import { runGit, ZERO_OID as ZERO, type StartGit } from '../git/run';

/** GitLab's push payloads carry at most this many commits (the newest, oldest first). */
const MAX_COMMITS = 20;

export interface RefUpdate {
  before: string;
  after: string;
  ref: string;
}

/** `old new ref` lines as post-receive prints them. */
export const parseRefUpdates = (log: string): RefUpdate[] =>
  log
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter((parts) => parts.length === 3 && /^[0-9a-f]{40}$/.test(parts[0]) && /^[0-9a-f]{40}$/.test(parts[1]))
    .map(([before, after, ref]) => ({ before, after, ref }));

/** The commits a ref update brought: since `before`, or for a new branch those on no other branch. */
async function commitsOf(repo: string, update: RefUpdate, start: StartGit): Promise<string[]> {
  if (update.after === ZERO) return [];
  const range =
    update.before === ZERO
      ? // --exclude takes the name below refs/heads/ when it applies to --branches.
        [update.after, '--not', `--exclude=${update.ref.replace(/^refs\/heads\//, '')}`, '--branches']
      : [`${update.before}..${update.after}`];
  // Through the launcher: after every push, the worker's loop is not held by forking git.
  const result = await runGit(repo, ['rev-list', '--reverse', ...range], { start });
  return result.stdout.toString('utf8').split('\n').filter(Boolean);
}

/** A branch update's commits as push payloads carry them (the newest MAX_COMMITS), and how many there were. */
async function pushedCommits(
  repo: string,
  update: RefUpdate,
  start: StartGit,
): Promise<{ commits: Commit[]; total: number }> {
  const ids = await commitsOf(repo, update, start);
  return { commits: await readCommits(repo, ids.slice(-MAX_COMMITS), start), total: ids.length };
}

/**
 * What a pushed tag names, as GitLab 8.x's tag push told it: the commit it finally points at (an
 * annotated tag is an object of its own, and may even tag another tag) and its annotation, null
 * for a lightweight tag.
 */
async function taggedCommit(
  repo: string,
  oid: string,
  start: StartGit,
): Promise<{ commit: Commit | null; message: string | null }> {
  let message: string | null = null;
  for (let target = oid; ;) {
    const [object] = await readObjects(repo, [target], start);
    if (object?.type !== 'tag')
      return { commit: object?.type === 'commit' ? parseCommit(target, object.body) : null, message };
    const tag = parseTag(object.body);
    // The outermost annotation is the pushed tag's own.
    message ??= tagMessage(tag);
    target = tag.object;
  }
}

/**
 * Records one `push` (branches) or `tag_push` (tags) event per ref update through the outbox, in
 * GitLab's push-hook terms, for the events feed and the webhooks. A new or moved tag carries the
 * commit it tags as its one commit (GitLab 8.x's tag push; 7.14 sent none).
 */
export async function recordPushEvents(deps: {
  sql: Sql;
  repo: string;
  projectId: number;
  userId: number | null;
  username: string | null;
  updates: RefUpdate[];
  /** The repository had no refs before this push. */
  wasEmpty: boolean;
  /** The branch HEAD names. */
  defaultBranch: string;
  /** How the reads of the pushed commits start (WorkerDeps.startGit). */
  startGit: StartGit;
}) {
  for (const update of deps.updates) {
    const isTag = update.ref.startsWith('refs/tags/');
    const tag = isTag && update.after !== ZERO ? await taggedCommit(deps.repo, update.after, deps.startGit) : null;
    const { commits, total } = tag
      ? { commits: tag.commit ? [tag.commit] : [], total: tag.commit ? 1 : 0 }
      : await pushedCommits(deps.repo, update, deps.startGit);
    const payload = {
      project_id: deps.projectId,
      actor_id: deps.userId,
      actor_username: deps.username,
      before: update.before,
      after: update.after,
      ref: update.ref,
      checkout_sha: tag ? (tag.commit?.id ?? null) : update.after === ZERO ? null : update.after,
      message: tag?.message ?? null,
      commits: commits.map((c) => ({
        id: c.id,
        message: c.message,
        timestamp: c.author?.date ?? null,
        author: { name: c.author?.name ?? '', email: c.author?.email ?? '' },
      })),
      total_commits_count: total,
      default_branch: deps.defaultBranch,
      // The push that created the default branch of an empty repository (which then gets protected).
      first_push_to_default_branch:
        deps.wasEmpty && update.before === ZERO && update.ref === `refs/heads/${deps.defaultBranch}`,
    };
    await deps.sql.begin((tx) => gitWorkerEvents.record(tx, isTag ? 'tag_push' : 'push', payload));
  }
}
