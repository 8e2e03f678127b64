import type { Diff, DiffServiceHandlers } from '@hub/protos';
import { readCommits } from '../git/objects';
import { existingRepo, gitText, resolveCommit, runGit } from '../git/run';
import { validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const ZERO_MODE = '000000';
const MAX_COMMITS = 1000;

/** `git diff --raw -z` records: modes, status and paths, in the same order as the patch. */
function parseRaw(raw: string): Array<Omit<Diff, 'diff'>> {
  const fields = raw.split('\0');
  const files: Array<Omit<Diff, 'diff'>> = [];
  for (let i = 0; i < fields.length - 1; ) {
    const [aMode, bMode, , , status] = fields[i++].slice(1).split(' ');
    const renamed = status.startsWith('R') || status.startsWith('C');
    const oldPath = fields[i++];
    const newPath = renamed ? fields[i++] : oldPath;
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
  return files;
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

/** Diff entries between two commits, cut short after `timeoutMs` (then `timedOut`). */
export async function diffBetween(repo: string, base: string, head: string, timeoutMs: number): Promise<{ diffs: Diff[]; timedOut: boolean }> {
  const args = ['-M', '--no-color', '--no-ext-diff', '--end-of-options', base, head];
  const [raw, patch] = await Promise.all([
    runGit(repo, ['diff', '--raw', '-z', ...args], { timeoutMs }),
    runGit(repo, ['diff', '-p', '--full-index', ...args], { timeoutMs }),
  ]);
  if (raw.code === null || patch.code === null) return { diffs: [], timedOut: true };
  const files = parseRaw(raw.stdout.toString('utf8'));
  const texts = splitPatch(patch.stdout.toString('utf8'));
  return { diffs: files.map((file, i) => ({ ...file, diff: texts[i] ?? '' })), timedOut: false };
}

/** Commits in `to` not in `from`, oldest first, and the diff from their merge base (three dots). */
export const CompareRefs = (deps: WorkerDeps): DiffServiceHandlers['CompareRefs'] =>
  unary('CompareRefs', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const from = await resolveCommit(repo, validateRef(request.from, 'from'), 'from');
    const to = await resolveCommit(repo, validateRef(request.to, 'to'), 'to');
    if (from === to) return { commit: null, commits: [], diffs: [], timedOut: false, sameRef: true };
    // The newest MAX_COMMITS, oldest first: a compare across all history must not read all of it.
    const ids = (await gitText(repo, ['rev-list', '--reverse', `--max-count=${MAX_COMMITS}`, '--end-of-options', to, `^${from}`])).split('\n').filter(Boolean);
    const commits = await readCommits(repo, ids);
    const base = (await runGit(repo, ['merge-base', '--end-of-options', from, to])).stdout.toString('utf8').trim() || from;
    const { diffs, timedOut } = await diffBetween(repo, base, to, deps.compareTimeoutMs);
    return { commit: commits.at(-1) ?? null, commits, diffs, timedOut, sameRef: false };
  });
