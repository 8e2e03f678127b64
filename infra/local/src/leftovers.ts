import { readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readPidFile } from './pid-file';
import { sleep } from './system';

/**
 * What a launcher has running for one data folder, kept in `launcher.json` there: a launcher that
 * dies without stopping them (SIGKILL, a crash, a power cut of its terminal) leaves this behind,
 * and whoever comes next, the keeper at once or the next `npm start`, stops what it lists.
 */
export interface LauncherState {
  /** The launcher's own pid: while it lives, nobody else may start on this folder. */
  pid: number;
  /** Service processes, with the entry each runs (a recycled pid runs something else). */
  services: Array<{ name: string; pid: number; entry: string }>;
  /** Daemonised servers (Postgres, Redis): their pid file, process name, and the signal that stops them cleanly. */
  servers: Array<{ pidFile: string; comm: string; signal: NodeJS.Signals }>;
}

export const stateFile = (dataDir: string) => join(dataDir, 'launcher.json');

export function readState(dataDir: string): LauncherState | null {
  try {
    return JSON.parse(readFileSync(stateFile(dataDir), 'utf8')) as LauncherState;
  } catch {
    return null;
  }
}

export function writeState(dataDir: string, state: LauncherState): void {
  const file = stateFile(dataDir);
  writeFileSync(file + '.tmp', JSON.stringify(state, null, 2));
  renameSync(file + '.tmp', file);
}

export function clearState(dataDir: string): void {
  rmSync(stateFile(dataDir), { force: true });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function procFile(pid: number, name: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return null;
  }
}

/** Signals `pid` if it still runs what we think, and waits (SIGKILL after `graceMs`) until it is gone. */
async function stopPid(pid: number, isOurs: () => boolean, signal: NodeJS.Signals, graceMs: number): Promise<boolean> {
  if (!alive(pid) || !isOurs()) return false;
  try {
    process.kill(pid, signal);
  } catch {
    return false;
  }
  const deadline = Date.now() + graceMs;
  while (alive(pid) && isOurs()) {
    if (Date.now() > deadline) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await sleep(50);
  }
  return true;
}

/** Stops everything `state` lists that still runs (services first, then their servers); returns what it stopped. */
export async function stopLeftovers(state: LauncherState): Promise<string[]> {
  const stopped: string[] = [];
  await Promise.all(
    state.services.map(async ({ name, pid, entry }) => {
      const isOurs = () => (procFile(pid, 'cmdline') ?? '').split('\0').some((arg) => arg.endsWith(entry));
      if (await stopPid(pid, isOurs, 'SIGTERM', 10_000)) stopped.push(`${name} (pid ${pid})`);
    }),
  );
  for (const { pidFile, comm, signal } of state.servers) {
    const pid = readPidFile(pidFile);
    if (pid === null) continue;
    // A pid file outlives a reboot, and the pid may now be another server (the machine's own
    // Postgres or Redis): ours runs in the folder of its pid file (both servers chdir there).
    const home = realpathOrNull(dirname(pidFile));
    const isOurs = () =>
      (procFile(pid, 'comm') ?? '').trim().startsWith(comm) &&
      home !== null &&
      realpathOrNull(`/proc/${pid}/cwd`) === home;
    // Postgres may need a while to checkpoint; SIGKILL is the last resort (it recovers from its WAL).
    if (await stopPid(pid, isOurs, signal, 60_000)) stopped.push(`${comm} (pid ${pid})`);
  }
  return stopped;
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Whether `pid` is a launcher still running (a Node process: a recycled pid is rarely one). */
export function launcherAlive(pid: number): boolean {
  if (pid === process.pid || !alive(pid)) return false;
  // A zombie or a kernel thread has an empty command line: no launcher either way.
  const argv0 = (procFile(pid, 'cmdline') ?? '').split('\0')[0];
  return /node(js)?$/.test(argv0) || argv0 === process.execPath;
}
