import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { launcherAlive, readState, stopLeftovers, writeState, type LauncherState } from './leftovers';
import { REPO_ROOT } from './processes';

/**
 * Takes the data folder for this launcher: refuses while another launcher runs on it, and stops
 * what one that died left running (its launcher.json says what).
 */
export async function claim(dataDir: string, log: (line: string) => void): Promise<LauncherState> {
  const previous = readState(dataDir);
  if (previous && launcherAlive(previous.pid)) {
    throw new Error(
      `another launcher (pid ${previous.pid}) is running on ${dataDir}: stop it first, or use another DATA_DIR`,
    );
  }
  if (previous) {
    const stopped = await stopLeftovers(previous);
    if (stopped.length) log(`a launcher that died left processes running; stopped ${stopped.join(', ')}`);
  }
  const state: LauncherState = { pid: process.pid, services: [], servers: [] };
  writeState(dataDir, state);
  return state;
}

/**
 * Starts the keeper (keeper.ts), which stops what this launcher leaves running if it dies.
 * Neither the keeper nor its pipe keeps this process alive; `release` lets it go.
 */
export function startKeeper(dataDir: string) {
  const keeper = spawn(process.execPath, [join(REPO_ROOT, 'infra/local/dist/keeper.js'), dataDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  const line = keeper.stdio[3] as Socket;
  keeper.unref();
  line.unref();
  return { release: () => line.destroy() };
}
