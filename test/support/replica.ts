import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '@hub/local';
import { request } from 'undici';
import { stack } from './api';

/** Longer than any process of the stack takes to start on a loaded CI machine. */
const READY_WITHIN_MS = 30_000;

/**
 * One more process of a kind the stack runs (`entry`: its built main, e.g. `rest-facade/dist/main.js`),
 * started from a test with the stack's settings and `settings` on top (an undefined value unsets
 * one). Answers once `readyUrl` answers 200; fails if the process exits first or is not ready in
 * READY_WITHIN_MS (then it is killed: nobody holds it to stop it later). Its output goes to
 * `<log>.log` in the stack's folder.
 */
export async function startReplica(
  entry: string,
  log: string,
  settings: NodeJS.ProcessEnv,
  readyUrl: string,
): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...stack.env, ...settings };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const file = openSync(join(stack.dir, `${log}.log`), 'a');
  const child = spawn(process.execPath, [resolve(REPO_ROOT, entry)], { env, stdio: ['ignore', file, file] });
  // The child has its own copy of the descriptor.
  closeSync(file);
  const deadline = Date.now() + READY_WITHIN_MS;
  for (let ready = false; !ready; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null)
      throw new Error(`${entry} exited with ${child.exitCode} before it was ready (see ${log}.log)`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} was not ready within ${READY_WITHIN_MS / 1000} s (see ${log}.log)`);
    }
    ready = await request(readyUrl).then(
      (r) => (r.body.dump(), r.statusCode === 200),
      () => false,
    );
  }
  return child;
}
