import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitLauncher, type GitLauncher } from './launcher';
import { runGit, type GitProcess, type StartGit } from './run';

/** Everything a run gave back: stdout's bytes, stderr's text, and how it ended. */
function finish(
  run: GitProcess,
  input?: Buffer | string,
): Promise<{ stdout: Buffer; stderr: string; code: number | null; signal: NodeJS.Signals | null; errors: Error[] }> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    let stderr = '';
    const errors: Error[] = [];
    run.stdout.on('data', (d: Buffer) => out.push(d));
    run.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    run.on('error', (error) => errors.push(error));
    run.on('close', (code, signal) => resolve({ stdout: Buffer.concat(out), stderr, code, signal, errors }));
    if (input !== undefined) run.stdin.end(input);
  });
}

/** The processes whose parent is `parent`, found in /proc. */
function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** This process's launcher children (the launcher does not say its pid). */
function launcherPids(): number[] {
  return childrenOf(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('launcher-process.js');
    } catch {
      return false; // gone meanwhile
    }
  });
}

describe('git launcher', () => {
  let launcher: GitLauncher;
  let repo: string;
  beforeAll(() => {
    launcher = createGitLauncher();
    repo = mkdtempSync(join(tmpdir(), 'launcher-test-'));
    execFileSync('git', ['init', '--bare', '--quiet', repo]);
  });
  afterAll(() => {
    launcher.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('gives git its stdin to the end and the worker all of its stdout', async () => {
    const content = randomBytes(300_000);
    const expected = execFileSync('git', ['hash-object', '--stdin'], { input: content }).toString('utf8');
    const result = await finish(launcher.spawn('git', ['hash-object', '--stdin'], repo, {}), content);
    expect(result).toMatchObject({ code: 0, signal: null, errors: [] });
    expect(result.stdout.toString('utf8')).toBe(expected);
  });

  it('streams a large output whole, with the environment it was given', async () => {
    const blob = randomBytes(5 * 1024 * 1024);
    const oid = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, input: blob })
      .toString('utf8')
      .trim();
    const result = await finish(launcher.spawn('git', ['cat-file', 'blob', oid], repo, { GIT_TRACE: '0' }));
    expect(result.code).toBe(0);
    expect(result.stdout.equals(blob)).toBe(true);
    const env = await finish(
      launcher.spawn('git', ['var', 'GIT_AUTHOR_IDENT'], repo, {
        GIT_AUTHOR_NAME: 'Grace',
        GIT_AUTHOR_EMAIL: 'grace@example.com',
      }),
    );
    expect(env.stdout.toString('utf8')).toMatch(/^Grace <grace@example.com> /);
  });

  it('reports the exit code and the start of stderr', async () => {
    const result = await finish(launcher.spawn('git', ['rev-parse', '--verify', 'refs/heads/nothing-here'], repo, {}));
    expect(result.code).toBe(128);
    expect(result.stderr).toContain('fatal');
    expect(result.stdout.length).toBe(0);
  });

  it('keeps parallel runs apart: each answer goes to the run that asked', async () => {
    const inputs = Array.from({ length: 24 }, (_, i) => `input ${i} ${randomBytes(8).toString('hex')}\n`);
    const results = await Promise.all(
      inputs.map((input) => finish(launcher.spawn('git', ['hash-object', '--stdin'], repo, {}), input)),
    );
    const expected = inputs.map((input) => execFileSync('git', ['hash-object', '--stdin'], { input }).toString('utf8'));
    expect(results.map((r) => r.stdout.toString('utf8'))).toEqual(expected);
  });

  it('kills a run that waits on its stdin', async () => {
    const run = launcher.spawn('git', ['cat-file', '--batch'], repo, {});
    const ended = finish(run);
    setTimeout(() => run.kill('SIGKILL'), 50);
    expect(await ended).toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('fails a run whose folder is gone as the repository not found (it was deleted before git started), then closes', async () => {
    const result = await finish(launcher.spawn('git', ['status'], join(repo, 'no-such-folder'), {}));
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors[0]).toMatchObject({ kind: 'REPOSITORY_NOT_FOUND' });
    expect(result.code).not.toBe(0);
  });

  it('fails the runs in flight when the launcher dies (error, then close), and starts it again for the next run', async () => {
    const waiting = launcher.spawn('git', ['cat-file', '--batch'], repo, {});
    const ended = finish(waiting);
    // The launcher is forked on the first send, which spawn() starts without waiting for it; the
    // run is in flight once the launcher has started its git. Killed any earlier, the spawn
    // request can still be on its way and fail as sent to no launcher, a different failure.
    const inFlight = () => launcherPids().find((launcherPid) => childrenOf(launcherPid).length > 0);
    for (const deadline = Date.now() + 10_000; inFlight() === undefined && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const pid = inFlight();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    const result = await ended;
    expect(result.errors.map((e) => e.message)).toContain('the git launcher exited');
    expect(result.code).toBeNull();
    const after = await finish(launcher.spawn('git', ['hash-object', '--stdin'], repo, {}), 'again\n');
    expect(after.stdout.toString('utf8')).toBe(
      execFileSync('git', ['hash-object', '--stdin'], { input: 'again\n' }).toString('utf8'),
    );
  });

  it('is what runGit uses for the runs the composition root hands it to, output cap included; other runs spawn here', async () => {
    const started: string[] = [];
    const start: StartGit = (file, args, cwd, env) => {
      started.push(args.join(' '));
      return launcher.spawn(file, args, cwd, env);
    };
    const blob = randomBytes(2 * 1024 * 1024);
    const oid = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, input: blob })
      .toString('utf8')
      .trim();
    const capped = await runGit(repo, ['cat-file', 'blob', oid], { maxOutput: 64 * 1024, start });
    expect(capped.code).toBeNull();
    const whole = await runGit(repo, ['cat-file', 'blob', oid], { start });
    expect(whole.code).toBe(0);
    expect(whole.stdout.equals(blob)).toBe(true);
    expect(started).toHaveLength(2);
    expect((await runGit(repo, ['cat-file', '-t', oid])).stdout.toString('utf8')).toBe('blob\n');
    expect(started).toHaveLength(2);
  });
});
