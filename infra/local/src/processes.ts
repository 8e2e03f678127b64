import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { VariableName } from '@hub/common';
import { sleep } from './system';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
/** Preloaded into every process started here; built, like the processes' own entries. */
const LIFELINE = join(REPO_ROOT, 'infra/local/dist/lifeline.js');
/** The child's fd of its lifeline: the first after stdin, stdout and stderr. */
export const LIFELINE_FD = 3;

/** Every long-running process of the system, in start order by tier, with its port variable. */
export const PROCESSES: readonly ProcessSpec[] = [
  { name: 'identity', entry: 'services/identity/dist/main.js', portVariable: 'IDENTITY_PORT', tier: 0 },
  { name: 'membership', entry: 'services/membership/dist/main.js', portVariable: 'MEMBERSHIP_PORT', tier: 0 },
  // Every project page is read from Postgres, resolved and serialized here: with 4 MiB garbage
  // collection was a quarter of its profile under a list page of 100, and 16 MiB took the page
  // from 99-101 to 108-143 req/s (A B A on one sitting); about 20 MB more resident after start-up.
  {
    name: 'projects',
    entry: 'services/projects/dist/main.js',
    portVariable: 'PROJECTS_PORT',
    tier: 0,
    semiSpaceMiB: 16,
  },
  // Streams 1 MiB raw blobs through pipe reads and gRPC frames: external memory that counts towards
  // the old generation's limit (see HEAP_GROWING_PERCENT).
  {
    name: 'git-worker',
    entry: 'services/git-worker/dist/main.js',
    portVariable: 'GIT_WORKER_HTTP_PORT',
    tier: 0,
    heapGrowingPercent: 100,
  },
  { name: 'repository', entry: 'services/repository/dist/main.js', portVariable: 'REPOSITORY_PORT', tier: 0 },
  { name: 'mergerequests', entry: 'services/mergerequests/dist/main.js', portVariable: 'MERGEREQUESTS_PORT', tier: 0 },
  { name: 'notes', entry: 'services/notes/dist/main.js', portVariable: 'NOTES_PORT', tier: 0 },
  // One program, two process kinds: the hooks API, and the workers that fan events out and deliver.
  {
    name: 'hooks',
    entry: 'services/hooks/dist/main.js',
    portVariable: 'HOOKS_PORT',
    tier: 0,
    env: { HOOKS_ROLE: 'subgraph' },
  },
  {
    name: 'hooks-worker',
    entry: 'services/hooks/dist/main.js',
    portVariable: 'HOOKS_WORKER_PORT',
    tier: 0,
    env: { HOOKS_ROLE: 'worker', OTEL_SERVICE_NAME: 'hooks-worker' },
  },
  { name: 'gateway', entry: 'gateway/dist/main.js', portVariable: 'GATEWAY_PORT', tier: 1 },
  // Every request's answer is parsed, shaped, presented and serialized here: with 4 MiB the
  // facade spent a quarter of a list page's time collecting garbage, with 16 MiB a sixth (about
  // 20 MB more resident after start-up).
  { name: 'rest-facade', entry: 'rest-facade/dist/main.js', portVariable: 'PORT', tier: 2, semiSpaceMiB: 16 },
];

/** Where a process's output goes: prefixed lines on our stdout, or a file per process. */
export type LogSink = { kind: 'console' } | { kind: 'files'; dir: string };

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

const COLORS = [36, 35, 33, 32, 34, 31];

export interface ProcessSpec {
  name: string;
  entry: string;
  portVariable: VariableName;
  tier: number;
  /** Settings of this process kind only (e.g. which role a shared program runs). */
  env?: NodeJS.ProcessEnv;
  /** V8's young generation per half, in MiB (SEMI_SPACE_MIB unless given). */
  semiSpaceMiB?: number;
  /** How far the old generation grows past what a full collection left (HEAP_GROWING_PERCENT unless given). */
  heapGrowingPercent?: number;
}

/**
 * A young generation of at most 4 MiB per half (V8 grows it to 16 MiB otherwise): the eleven
 * processes keep 1,127 MB instead of 1,337 MB after start-up (issue 14: idle RSS ≤ 1.2 GiB).
 */
const SEMI_SPACE_MIB = 4;

/**
 * The old generation may grow to this much past what the last full collection left before the
 * next one, in per cent. V8's own factor is chosen at run time, up to 4× under load.
 *
 * At 100 (every process's setting before), the processes that answer requests grew by more than
 * the issue's 64 MiB under the bench's load: the facade keeps about 75 MB live while it serves
 * `GET /projects/:id` and collected at about 157 MB (a full collection every ~1.6 s). In the full
 * bench runs before and after this setting: the facade +109 → +77 MiB under `GET /projects/:id`,
 * the gateway +90 → under projects' +54 (`GetProject`), projects +73 → +23 at most (the list page),
 * the gateway +131 → +86 holding 1,000 subscriptions. The facade's CPU per request did not move
 * (0.43-0.45 ms either way, A B A B). Lower is not better for it: at 30 % a 1 MiB raw blob cost
 * the facade 2.9 ms of CPU against 1.4-1.5 at 50, for the external memory below.
 *
 * The git worker keeps 100: external memory (the ArrayBuffers a streamed blob passes through:
 * pipe reads, gRPC frames, socket writes) counts towards the limit, and with V8's own factor the
 * worker sending 1 MiB raw blobs one at a time ran a full mark-compact of its 31 MB heap every ~8
 * blobs: 8.4 ms of its CPU per blob against 3.0-3.4 at 100.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * V8 flags a process kind reads at every collection, so a process may also set them on itself at
 * start-up (the image's entry point does, as NODE_OPTIONS refuses them).
 */
export const runtimeV8Flags = (spec: Pick<ProcessSpec, 'heapGrowingPercent'>): string[] => [
  `--heap-growing-percent=${spec.heapGrowingPercent ?? HEAP_GROWING_PERCENT}`,
];

/**
 * HUB_CPU_PROFILE_DIR=dir: every process writes a V8 CPU profile there when it stops (open it in
 * Chrome's DevTools), named after the process. For finding where a request's time goes; never set
 * when timing, as sampling costs a few per cent.
 */
function profilingFlags(name: string): string[] {
  const dir = process.env.HUB_CPU_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.${Date.now()}.cpuprofile`] : [];
}

export function startProcess(options: {
  name: string;
  entry: string;
  env: NodeJS.ProcessEnv;
  logs: LogSink;
  index: number;
  semiSpaceMiB?: number;
  heapGrowingPercent?: number;
}): RunningProcess {
  const semiSpace = `--max-semi-space-size=${options.semiSpaceMiB ?? SEMI_SPACE_MIB}`;
  const child = spawn(
    process.execPath,
    [
      '--enable-source-maps',
      semiSpace,
      ...runtimeV8Flags(options),
      ...profilingFlags(options.name),
      '--require',
      LIFELINE,
      join(REPO_ROOT, options.entry),
    ],
    {
      // graphql-js and Express skip their development-only checks in production (graphql's
      // instanceOf alone took 6% of a projects list under load).
      env: { NODE_ENV: 'production', ...options.env, HUB_LIFELINE: String(LIFELINE_FD) },
      // fd 3: the lifeline, closed by the kernel however this process ends (see lifeline.ts).
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    },
  );
  if (options.logs.kind === 'files') {
    const file = createWriteStream(join(options.logs.dir, `${options.name}.log`), { flags: 'a' });
    child.stdout!.pipe(file);
    child.stderr!.pipe(file);
  } else {
    const prefix = `\x1b[${COLORS[options.index % COLORS.length]}m${options.name.padEnd(12)}|\x1b[0m `;
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(prefix + line + '\n'));
    }
  }
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  return {
    name: options.name,
    child,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      // Cleared once the process is gone: a timer left running would hold whoever stopped it (a
      // test run's global teardown: "Jest did not exit one second after the test run") for 15 s.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 15_000)));
      const ended = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (ended === 'timeout') child.kill('SIGKILL');
    },
  };
}

/** Polls `/readyz` until it answers 200; fails early if the process dies. */
export async function waitReady(process: RunningProcess, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let died = false;
  void process.exited.then(() => (died = true));
  while (Date.now() < deadline) {
    if (died) throw new Error(`${process.name} exited during start-up (exit code ${process.child.exitCode})`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${process.name} was not ready within ${timeoutMs} ms`);
}
