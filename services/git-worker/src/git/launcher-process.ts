// The git launcher's own process (see launcher.ts): it starts git for the worker and reports how
// each run ended. Only Node's core modules, so its heap stays small and a fork of it stays cheap.
import { spawn, type ChildProcess } from 'node:child_process';
import type { LaunchReply, LaunchRequest } from './launcher-protocol';

/** The start of a run's stderr that goes back with its exit: enough to say why, never unbounded. */
const MAX_STDERR = 64 * 1024;

const running = new Map<number, ChildProcess>();

const reply = (message: LaunchReply) => process.send?.(message);

/** A run that could not start: the error, then the exit that ends it on the worker's side. */
const refuse = (id: number, message: string) => {
  reply({ op: 'error', id, message });
  reply({ op: 'exit', id, code: null, signal: null, stderr: '' });
};

/** A native stream handle as it arrives over IPC: used as git's stdin and stdout, then closed here. */
interface PassedHandle {
  close(): void;
}

function launch(request: Extract<LaunchRequest, { op: 'spawn' }>, handle: PassedHandle) {
  const { id } = request;
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: { ...process.env, ...request.env },
      // The worker's socket is git's stdin and stdout; stderr comes back with the exit.
      stdio: [handle as never, handle as never, 'pipe'],
    });
  } catch (error) {
    refuse(id, (error as Error).message);
    return;
  } finally {
    // git holds its own copy now; ours would keep the worker's end from seeing git's EOF.
    handle.close();
  }
  running.set(id, child);
  let stderr = '';
  child.stderr!.on('data', (data: Buffer) => {
    if (stderr.length < MAX_STDERR) stderr += data.toString('utf8', 0, MAX_STDERR - stderr.length);
  });
  child.on('error', (error) => reply({ op: 'error', id, message: error.message }));
  child.on('close', (code, signal) => {
    running.delete(id);
    reply({ op: 'exit', id, code, signal, stderr });
  });
}

process.on('message', (request: LaunchRequest, handle?: PassedHandle) => {
  if (request.op === 'kill') running.get(request.id)?.kill(request.signal);
  else if (handle) launch(request, handle);
  else refuse(request.id, 'no stream came with the request');
});

// The worker is gone (or closed the launcher): its runs have no one left to answer.
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
