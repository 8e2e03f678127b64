import type { Commit, CompareRefsResponse, Diff, DiffServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import type { ObjectReader } from '../git/object-reader';
import { parseCommit, readCommitsFrom } from '../git/objects';
import { existingRepo, gitText, runGit, type StartGit } from '../git/run';
import { RAW_THEN_PATCH_ARGS } from '../git/tree-differ';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const ZERO_MODE = '000000';
const MAX_COMMITS = 1000;

/**
 * One `git diff --raw -p -z` output: the raw records (modes, status and NUL-terminated paths, in
 * the same order as the patch), a NUL, then the patch. Read record by record from the buffer, so
 * the patch is decoded once and the raw part is never split as a whole.
 */
function parseRawThenPatch(out: Buffer): { files: Array<Omit<Diff, 'diff'>>; patch: string } {
  const files: Array<Omit<Diff, 'diff'>> = [];
  let at = 0;
  const field = () => {
    const end = out.indexOf(0, at);
    const text = out.toString('utf8', at, end < 0 ? out.length : end);
    at = end < 0 ? out.length : end + 1;
    return text;
  };
  while (at < out.length && out[at] === 0x3a /* ':' */) {
    const [aMode, bMode, , , status = ''] = field().slice(1).split(' ');
    const renamed = status.startsWith('R') || status.startsWith('C');
    const oldPath = field();
    const newPath = renamed ? field() : oldPath;
    files.push({
      oldPath,
      newPath,
      aMode: aMode === ZERO_MODE ? '' : aMode,
      bMode: bMode === ZERO_MODE ? '' : bMode,
      newFile: status === 'A',
      deletedFile: status === 'D',
      renamedFile: status.startsWith('R'),
    });
  }
  if (out[at] === 0) at += 1;
  return { files, patch: out.toString('utf8', at) };
}

/** The patch split per file, each without its `diff --git` and `index` header lines (as GitLab showed it). */
function splitPatch(patch: string): string[] {
  return patch
    .split(/^diff --git .*\n/m)
    .slice(1)
    .map((part) => {
      const lines = part.split('\n');
      const start = lines.findIndex((l) => l.startsWith('--- ') || l.startsWith('@@') || l.startsWith('Binary files'));
      return start < 0 ? '' : lines.slice(start).join('\n');
    });
}

/**
 * The most diff output an answer carries: the answer travels as one gRPC message, which the
 * worker caps at 16 MiB, so a larger diff could never be sent. Past this it is cut short like a
 * slow one (`timedOut`), and no more than this is ever held.
 */
const MAX_DIFF_OUTPUT = 12 * 1024 * 1024;

/** Diff entries of `git diff <revisions>` from one git process, cut short after `timeoutMs` or MAX_DIFF_OUTPUT (then `timedOut`). */
async function runDiff(
  repo: string,
  revisions: string[],
  timeoutMs: number,
  start: StartGit,
): Promise<{ diffs: Diff[]; timedOut: boolean; code: number | null }> {
  const result = await runGit(repo, ['diff', ...RAW_THEN_PATCH_ARGS, '--end-of-options', ...revisions], {
    timeoutMs,
    maxOutput: MAX_DIFF_OUTPUT,
    start,
  });
  if (result.code === null) return { diffs: [], timedOut: true, code: null };
  return { diffs: diffsOf(result.stdout), timedOut: false, code: result.code };
}

/** Diff entries of one `--raw -p -z` output. */
function diffsOf(out: Buffer): Diff[] {
  const { files, patch } = parseRawThenPatch(out);
  const texts = splitPatch(patch);
  return files.map((file, i) => ({ ...file, diff: texts[i] ?? '' }));
}

/** Diff entries between two commits. */
export async function diffBetween(
  repo: string,
  base: string,
  head: string,
  timeoutMs: number,
  start: StartGit,
): Promise<{ diffs: Diff[]; timedOut: boolean }> {
  const { diffs, timedOut } = await runDiff(repo, [base, head], timeoutMs, start);
  return { diffs, timedOut };
}

/**
 * The diff from the merge base of `from` and `to` to `to`: git finds the base itself (three
 * dots), so the diff needs no merge-base process before it. Histories with no common commit are
 * diffed from `from` itself, as GitLab did.
 */
async function diffFromMergeBase(
  repo: string,
  from: string,
  to: string,
  timeoutMs: number,
  start: StartGit,
): Promise<{ diffs: Diff[]; timedOut: boolean }> {
  const threeDot = await runDiff(repo, [`${from}...${to}`], timeoutMs, start);
  if (threeDot.code === null || threeDot.code === 0) return threeDot;
  return diffBetween(repo, from, to, timeoutMs, start);
}

/** The first batch of a first-parent walk; each next one is twice as large. */
const FIRST_WALK_BATCH = 16;
/**
 * How deep the walk looks for `from` before leaving the range to rev-list: branches that diverged
 * on a long line without merges would otherwise read MAX_COMMITS commits before learning that.
 */
const MAX_LINEAR_WALK = 240;

/**
 * The commits in `to` not in `from`, newest first, when `from` is on `to`'s first-parent line
 * with no merge between them (a branch ahead of its base: the usual compare), or null for any
 * other shape (a merge on the way, `from` not met within MAX_LINEAR_WALK), which rev-list answers.
 * Read in the warm reader as `to~0`, `to~1`, … pipelined in growing batches: no process started.
 * Without merges every commit's one parent is the only way down, so the commits met before
 * `from` are exactly `to ^from`, and `from` is the merge base.
 */
async function linearRange(reader: ObjectReader, from: string, to: string): Promise<Commit[] | null> {
  const commits: Commit[] = [];
  for (let depth = 0, batch = FIRST_WALK_BATCH; depth < MAX_LINEAR_WALK; depth += batch, batch *= 2) {
    const count = Math.min(batch, MAX_LINEAR_WALK - depth);
    const objects = await Promise.all(Array.from({ length: count }, (_, i) => reader.contents(`${to}~${depth + i}`)));
    for (const object of objects) {
      // Past the root commit: `from` is not on this line.
      if (!object || object.type !== 'commit') return null;
      if (object.oid === from) return commits;
      const commit = parseCommit(object.oid, Buffer.concat(object.parts));
      if (commit.parentIds.length !== 1) return null;
      commits.push(commit);
    }
  }
  return null;
}

/**
 * The compare of a linear range (linearRange) with its diff from the repository's warm tree
 * differ, started beside the walk on the guess that the range is linear; null when the walk says
 * otherwise (the diff's answer is then left unread). A differ busy with another compare, or one
 * that fails, gives way to a `git diff` of this compare's own.
 */
async function compareLinear(
  deps: WorkerDeps,
  repo: string,
  reader: ObjectReader,
  from: string,
  to: string,
): Promise<CompareRefsResponse | null> {
  const differ = deps.readers.differ(repo);
  const limits = { timeoutMs: deps.compareTimeoutMs, maxOutput: MAX_DIFF_OUTPUT };
  const warm = differ.busy ? null : differ.diff(to, from, limits);
  warm?.catch(() => {}); // read below only when the range is linear
  const newestFirst = await linearRange(reader, from, to);
  if (!newestFirst) return null;
  const commits = newestFirst.reverse();
  const output = warm ? await warm.catch(() => undefined) : undefined;
  const { diffs, timedOut } =
    output === undefined
      ? await diffBetween(repo, from, to, deps.compareTimeoutMs, deps.startGit)
      : output === null
        ? { diffs: [], timedOut: true }
        : { diffs: diffsOf(output), timedOut: false };
  return { commit: commits.at(-1) ?? null, commits, diffs, timedOut, sameRef: false };
}

/** A commit a validated ref names, looked up in the warm reader, or REF_NOT_FOUND. */
async function commitOf(reader: ObjectReader, ref: string, field: string): Promise<string> {
  const found = await reader.info(`${ref}^{commit}`);
  if (!found) throw gitError('REF_NOT_FOUND', `${field} names no commit`, field);
  return found.oid;
}

/**
 * Commits in `to` not in `from`, oldest first, and the diff from their merge base (three dots).
 * Refs resolve and commits are read in the warm reader. A linear range is walked there too and
 * diffed in the warm tree differ (compareLinear), with no process started; any other runs
 * rev-list and `git diff` beside each other: one process deep, as `git diff` and `git log` would
 * be. Answers are kept by commit pair
 * (`deps.compares`); the refs are resolved on every call, so a moved branch is seen at once.
 */
export const CompareRefs = (deps: WorkerDeps): DiffServiceHandlers['CompareRefs'] =>
  unary('CompareRefs', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const reader = deps.readers.get(repo);
    const fromRef = validateRef(request.from, 'from');
    const toRef = validateRef(request.to, 'to');
    const [from, to] = await Promise.all([commitOf(reader, fromRef, 'from'), commitOf(reader, toRef, 'to')]);
    if (from === to) return { commit: null, commits: [], diffs: [], timedOut: false, sameRef: true };
    return deps.compares.of(repo, from, to, async () => {
      const linear = await compareLinear(deps, repo, reader, from, to);
      if (linear) return linear;
      const [commits, { diffs, timedOut }] = await Promise.all([
        // The newest MAX_COMMITS, oldest first: a compare across all history must not read all of it.
        gitText(repo, ['rev-list', '--reverse', `--max-count=${MAX_COMMITS}`, '--end-of-options', to, `^${from}`], {
          start: deps.startGit,
        }).then((out) => readCommitsFrom(reader, out.split('\n').filter(Boolean))),
        diffFromMergeBase(repo, from, to, deps.compareTimeoutMs, deps.startGit),
      ]);
      return { commit: commits.at(-1) ?? null, commits, diffs, timedOut, sameRef: false };
    });
  });
