import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { gitError } from './errors';

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/** Settings every git command runs with: no pager, no prompts, paths printed raw, no system config surprises. */
const GIT_ENV = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_PAGER: 'cat',
  LC_ALL: 'C',
};
const BASE_ARGS = ['-c', 'core.quotepath=false', '-c', 'safe.directory=*'];

/** The bare repository of a project: REPOS_ROOT/<project id>.git. */
export function repoPath(root: string, projectId: number): string {
  if (!Number.isInteger(projectId) || projectId < 1)
    throw gitError('INVALID_ARGUMENT', 'project id is invalid', 'repository');
  return join(root, `${projectId}.git`);
}

/**
 * Where a repository is built before it is renamed into place at `path`. Unique per call: two
 * builds of one repository in the same millisecond (a push arriving with its project's creation
 * event) must not share a folder, or one's cleanup removes the other's work. The `.git.tmp-` infix
 * is what deleting a source looks for among forks in the making.
 */
export const buildingPath = (path: string): string => `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;

/** The repository's path, or REPOSITORY_NOT_FOUND. */
export function existingRepo(root: string, projectId: number): string {
  const path = repoPath(root, projectId);
  if (!existsSync(join(path, 'HEAD'))) throw gitError('REPOSITORY_NOT_FOUND', 'no repository for this project');
  return path;
}

/** What the worker uses of a running git: a ChildProcess, or a run the git launcher started (launcher.ts). */
export interface GitProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'close' | 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}

/** How git starts: `file args` in `cwd` with `env` over the process's own environment. */
export type StartGit = (file: string, args: string[], cwd: string, env: Record<string, string>) => GitProcess;

/** spawn() from this process: the runs that need not go through the launcher, and all of them where there is none. */
export const startGitHere: StartGit = (file, args, cwd, env) =>
  spawn(file, args, { cwd, env: { ...process.env, ...env } });

/**
 * Starts git with an argument array (never a shell) in `cwd`, with `start` when given (here
 * otherwise). The composition root decides how the expensive runs start (WorkerDeps.startGit: the
 * git launcher in the worker) and hands that to them; the commands that move refs are spawned
 * here, in the same tick as their handler's check that the repository exists, so a repository
 * deleted mid-request cannot vanish between the check and a write's start.
 */
export function spawnGit(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
  options: { start?: StartGit } = {},
): GitProcess {
  return (options.start ?? startGitHere)('git', [...BASE_ARGS, ...args], cwd, { ...GIT_ENV, ...env });
}

/** spawnGit bound to one way of starting git: what a caller that only ever launches is handed. */
export const launchWith =
  (start: StartGit) =>
  (cwd: string, args: string[], env: Record<string, string> = {}): GitProcess =>
    spawnGit(cwd, args, env, { start });

/** Collected output is for answers that fit in a response; anything bigger streams instead. */
const MAX_OUTPUT = 128 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Runs git to completion, collecting its output. It is killed (and reports code null) after
 * `timeoutMs` (two minutes unless given) or once its output passes `maxOutput` (MAX_OUTPUT unless
 * given), so one huge
 * repository cannot hang or exhaust the worker.
 *
 * Why not simple-git here (it serves config, fork clones and imports; see
 * simple-git.ts): these callers read the exit code as the answer (rev-parse --verify, update-ref
 * with an expected old value, merge-tree's conflicts, check-ref-format), feed stdin (mktag,
 * commit-tree), or need an output cap, and simple-git turns exit codes into exceptions and buffers
 * whole outputs. Blobs, archives and http-backend stream from their own processes (stream.ts), and
 * hot reads go to the warm cat-file readers (object-reader.ts).
 */
export function runGit(
  cwd: string,
  args: string[],
  options: {
    input?: string | Buffer;
    env?: Record<string, string>;
    timeoutMs?: number;
    maxOutput?: number;
    /** How git starts (spawnGit). */
    start?: StartGit;
  } = {},
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(cwd, args, options.env, { start: options.start });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let capped = false;
    const maxOutput = options.maxOutput ?? MAX_OUTPUT;
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size <= maxOutput) return void out.push(d);
      capped = true;
      child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Cut short whatever git's own exit says: a git that wrote everything and exited before the
      // kill reached it (a launched run is killed through the launcher) left output unread here.
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: capped ? null : code });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Runs git and returns stdout as text; a non-zero exit is an unexpected failure. */
export async function gitText(
  cwd: string,
  args: string[],
  options: Parameters<typeof runGit>[2] = {},
): Promise<string> {
  const result = await runGit(cwd, args, options);
  if (result.code !== 0) throw new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`);
  return result.stdout.toString('utf8');
}

/** The object id git uses for "no commit": the old value of a new ref, the new value of a deleted one. */
export const ZERO_OID = '0'.repeat(40);

/** The commit a branch, tag or sha names, or null. The ref must be validated first. */
export async function findCommit(repo: string, ref: string): Promise<string | null> {
  const result = await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  const sha = result.stdout.toString('utf8').trim();
  return result.code === 0 && /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}

/** The commit a branch, tag or sha names, or REF_NOT_FOUND. The ref must be validated first. */
export async function resolveCommit(repo: string, ref: string, field = 'ref'): Promise<string> {
  const sha = await findCommit(repo, ref);
  if (!sha) throw gitError('REF_NOT_FOUND', `${field} names no commit`, field);
  return sha;
}

/** Whether the repository has no commits at all. */
export async function isEmptyRepo(repo: string): Promise<boolean> {
  const result = await runGit(repo, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads', 'refs/tags']);
  return result.stdout.length === 0;
}

/** The branch HEAD points at. */
export async function headBranch(repo: string): Promise<string> {
  const result = await runGit(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return result.stdout.toString('utf8').trim() || 'master';
}
