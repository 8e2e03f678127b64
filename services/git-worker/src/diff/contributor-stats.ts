import type { Contributor } from '@hub/protos';
import { createPerCommitCache } from '../git/per-commit-cache';
import { spawnGit } from '../git/run';

const TAB = 0x09;
const NEWLINE = 0x0a;
const NUL = 0x00;

/** A numstat count: digits only; `-` (a binary file) counts nothing. */
function countOf(line: Buffer, from: number, to: number): number {
  if (from >= to) return 0;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = line[i] - 0x30;
    if (digit < 0 || digit > 9) return 0;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Sums `git log --numstat --format=%x00%aN%x00%aE` as it streams: a line starting with NUL opens
 * a commit (NUL name NUL email), the numstat lines after it (`added TAB deleted TAB path`) add to
 * that commit's author. Only the authors are held, never the log: a chunk at a time, split
 * anywhere. Authors are grouped by email, case-insensitively, as GitLab did; the newest commit's
 * name and spelling of the email stand for them.
 */
export class NumstatLogParser {
  private readonly byEmail = new Map<string, Contributor>();
  private author: Contributor | null = null;
  /** The start of a line whose newline has not arrived yet. */
  private rest: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): void {
    let at = 0;
    let eol = chunk.indexOf(NEWLINE);
    if (this.rest.length && eol >= 0) {
      this.line(Buffer.concat([this.rest, chunk.subarray(0, eol)]));
      this.rest = Buffer.alloc(0);
      at = eol + 1;
      eol = chunk.indexOf(NEWLINE, at);
    }
    for (; eol >= 0; at = eol + 1, eol = chunk.indexOf(NEWLINE, at)) this.line(chunk.subarray(at, eol));
    if (at < chunk.length) this.rest = Buffer.concat([this.rest, chunk.subarray(at)]);
  }

  /** The authors, most commits first (then by name). */
  end(): Contributor[] {
    if (this.rest.length) this.line(this.rest);
    this.rest = Buffer.alloc(0);
    return [...this.byEmail.values()].sort((a, b) => b.commits! - a.commits! || a.name!.localeCompare(b.name!));
  }

  /**
   * Adds the authors of an older part of the same history (a parser that has read it to the end):
   * the counts sum, and an author this newer part knows keeps its name and spelling of the email.
   */
  joinOlder(older: NumstatLogParser): this {
    older.end(); // takes its last line in
    for (const [key, author] of older.byEmail) {
      const mine = this.byEmail.get(key);
      if (!mine) this.byEmail.set(key, { ...author });
      else {
        mine.commits! += author.commits!;
        mine.additions! += author.additions!;
        mine.deletions! += author.deletions!;
      }
    }
    return this;
  }

  private line(line: Buffer): void {
    if (line[0] === NUL) {
      const [, name = '', email = ''] = line.toString('utf8').split('\0');
      const key = email.toLowerCase();
      this.author = this.byEmail.get(key) ?? { name, email, commits: 0, additions: 0, deletions: 0 };
      this.author.commits! += 1;
      this.byEmail.set(key, this.author);
      return;
    }
    const firstTab = line.indexOf(TAB);
    if (!this.author || firstTab < 0) return;
    const secondTab = line.indexOf(TAB, firstTab + 1);
    if (secondTab < 0) return;
    this.author.additions! += countOf(line, 0, firstTab);
    this.author.deletions! += countOf(line, firstTab + 1, secondTab);
  }
}

/** How long one history walk may run before it is stopped. */
const LOG_TIMEOUT_MS = 120_000;
/**
 * Histories at least this long are walked in two halves by two git processes side by side (two
 * cores): the walk's cost is the per-commit diffs, which split cleanly. On the bench's 2,500
 * commits: one walk 118 ms, the two halves at once 79-94 ms. Shorter histories are not worth
 * the extra process.
 */
const SPLIT_FROM_COMMITS = 1000;
/** The most commit ids read to find the middle (41 bytes each): a longer history is split SPLIT_LIST_MAX / 2 commits down from its tip. */
const SPLIT_LIST_MAX = 200_000;
/** How many repositories' last counted history lengths are kept (a few bytes each). */
const LENGTHS_KEPT = 10_000;

/**
 * One walk of the history of `from`: whole, down to (not into) the history of `exclude`, or by
 * position in git's own order of the non-merge commits (`skip` the newest, or stop after `max`).
 */
interface Walk {
  from: string;
  exclude?: string;
  skip?: number;
  max?: number;
}

/** Contributors of one walk, read from one streamed `git log`. */
function logContributors(repo: string, walk: Walk, spawn: typeof spawnGit): Promise<NumstatLogParser> {
  return new Promise((resolve, reject) => {
    const limits = [
      ...(walk.skip === undefined ? [] : [`--skip=${walk.skip}`]),
      ...(walk.max === undefined ? [] : [`--max-count=${walk.max}`]),
    ];
    const revisions = [walk.from, ...(walk.exclude ? [`^${walk.exclude}`] : [])];
    const child = spawn(repo, [
      'log',
      '--no-merges',
      '--numstat',
      '--format=%x00%aN%x00%aE',
      ...limits,
      '--end-of-options',
      ...revisions,
      '--',
    ]);
    const parser = new NumstatLogParser();
    const timer = setTimeout(() => child.kill('SIGKILL'), LOG_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => parser.push(chunk));
    child.stderr.resume();
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(parser);
      else reject(new Error(`git log exited with ${code}`));
    });
  });
}

/**
 * The commit halfway down the history of `commit` (newest first), or null when the history is
 * shorter than `splitFrom`. Any commit of the history splits it exactly: `commit ^middle` and
 * `middle` cover every commit once.
 */
function middleOf(repo: string, commit: string, splitFrom: number, spawn: typeof spawnGit): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(repo, ['rev-list', `--max-count=${SPLIT_LIST_MAX}`, '--end-of-options', commit, '--']);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.resume();
    child.stdin.end();
    // Without a middle the history is walked whole, which reports its own failure.
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      if (code !== 0) return resolve(null);
      // One id per line, all of one width: the middle one is read in place, the list never split.
      const list = Buffer.concat(chunks);
      const width = list.indexOf(0x0a) + 1;
      const count = width > 0 ? list.length / width : 0;
      resolve(
        count >= splitFrom
          ? list.toString('latin1', Math.floor(count / 2) * width, Math.floor(count / 2) * width + width - 1)
          : null,
      );
    });
  });
}

/**
 * The halves a history of `commit` is walked in. With `knownLength` (how many non-merge commits
 * this repository's last count saw; after a push it is off by the few commits pushed) both start
 * at once: the newest half of that and the rest, by position in the one order both processes
 * walk, which splits any history exactly whatever its real length. Without it, one `rev-list`
 * finds the middle first.
 */
async function walksOf(
  repo: string,
  commit: string,
  knownLength: number | undefined,
  splitFrom: number,
  spawn: typeof spawnGit,
): Promise<Walk[]> {
  if (knownLength !== undefined) {
    if (knownLength < splitFrom) return [{ from: commit }];
    const half = Math.floor(knownLength / 2);
    return [
      { from: commit, max: half },
      { from: commit, skip: half },
    ];
  }
  const middle = await middleOf(repo, commit, splitFrom, spawn);
  return middle ? [{ from: commit, exclude: middle }, { from: middle }] : [{ from: commit }];
}

/** How many commits a count saw (the sum over its authors). */
const commitsIn = (contributors: Contributor[]) => contributors.reduce((sum, c) => sum + c.commits!, 0);

/** Contributors of the history up to `commit`: one walk, or two halves at once for a long history. */
async function countContributors(
  repo: string,
  commit: string,
  knownLength: number | undefined,
  spawn: typeof spawnGit,
  splitFrom: number,
): Promise<Contributor[]> {
  const walks = await walksOf(repo, commit, knownLength, splitFrom, spawn);
  const [newest, ...older] = await Promise.all(walks.map((walk) => logContributors(repo, walk, spawn)));
  return older.reduce((joined, part) => joined.joinOlder(part), newest).end();
}

/**
 * Contributor statistics per commit: a history never changes under a commit id, so answers are
 * cached by repository and commit (a push moves the branch to a new commit, hence a new key), the
 * least recently used going first past `maxEntries` answers or `maxAuthors` authors in all.
 * Concurrent requests for the same commit share one `git log` (single flight).
 */
export function createContributorStats(
  options: { maxEntries?: number; maxAuthors?: number; spawn?: typeof spawnGit; splitFrom?: number } = {},
) {
  const maxEntries = options.maxEntries ?? 256;
  const splitFrom = options.splitFrom ?? SPLIT_FROM_COMMITS;
  const maxAuthors = options.maxAuthors ?? 100_000;
  const spawn = options.spawn ?? spawnGit;
  const cache = createPerCommitCache<Contributor[]>({
    maxEntries,
    maxWeight: maxAuthors,
    weigh: (contributors) => contributors.length,
  });
  /** Per repository, how many commits its last count saw: the next count splits by it without a rev-list. */
  const lengths = new Map<string, number>();

  return {
    /** The contributors of the history up to `commit` (a full commit id) in `repo`. */
    of: (repo: string, commit: string): Promise<Contributor[]> =>
      cache.of(repo, commit, async () => {
        const contributors = await countContributors(repo, commit, lengths.get(repo), spawn, splitFrom);
        lengths.delete(repo);
        lengths.set(repo, commitsIn(contributors));
        if (lengths.size > LENGTHS_KEPT) lengths.delete(lengths.keys().next().value!);
        return contributors;
      }),
  };
}

export type ContributorStats = ReturnType<typeof createContributorStats>;
