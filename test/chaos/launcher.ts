import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_TABLE } from '@hub/common';
import { freePort, PROCESSES, readPidFile, REPO_ROOT } from '@hub/local';

/** What launcher.json in a data folder lists (infra/local/src/leftovers.ts). */
export interface LauncherState {
  pid: number;
  services: Array<{ name: string; pid: number; entry: string }>;
  servers: Array<{ pidFile: string; comm: string; signal: string }>;
}

export function launcherState(dataDir: string): LauncherState | null {
  const file = join(dataDir, 'launcher.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LauncherState) : null;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every pid a launcher state names: its services and its servers (read from their pid files). */
export function statePids(state: LauncherState): Array<{ name: string; pid: number }> {
  const servers = state.servers.flatMap(({ pidFile, comm }) => {
    const pid = readPidFile(pidFile);
    return pid === null ? [] : [{ name: comm, pid }];
  });
  return [...state.services.map(({ name, pid }) => ({ name, pid })), ...servers];
}

/** Settings for a launcher of its own: every port free, nothing of the caller's configuration. */
export async function launcherEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(CONFIG_TABLE)) delete env[name];
  env.DATA_DIR = dataDir;
  for (const name of [
    ...PROCESSES.map((p) => p.portVariable),
    'GIT_WORKER_GRPC_PORT',
    'LOCAL_POSTGRES_PORT',
    'LOCAL_REDIS_PORT',
  ]) {
    env[name] = String(await freePort());
  }
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

export interface Launcher {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  restUrl: string;
  rootToken: string;
}

/** Runs `npm start`'s launcher (infra/local/dist/cli.js start) and waits for its banner. */
export async function startLauncher(env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Launcher> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'infra/local/dist/cli.js'), 'start'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    const token = /root token\s+(\S+)/.exec(output);
    if (token)
      return {
        child,
        output: () => output,
        exited,
        restUrl: `http://127.0.0.1:${env.PORT}/api/v3`,
        rootToken: token[1],
      };
    if (gone) throw new Error(`the launcher exited before it was up:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the launcher was not up within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until none of `pids` runs any more; returns the ones still running after `timeoutMs`. */
export async function waitGone(pids: Array<{ name: string; pid: number }>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && pids.some(({ pid }) => alive(pid)))
    await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(({ pid }) => alive(pid));
}

/** The launcher's keeper process (infra/local/src/keeper.ts), found among its children. */
export function keeperPid(launcherPid: number): number | null {
  let children: string[];
  try {
    children = readFileSync(`/proc/${launcherPid}/task/${launcherPid}/children`, 'utf8').trim().split(/\s+/);
  } catch {
    return null;
  }
  for (const pid of children) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('keeper.js')) return Number(pid);
    } catch {
      // gone
    }
  }
  return null;
}
