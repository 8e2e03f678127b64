import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { gitError } from './errors';
import type { GitProcess } from './run';
import type { LaunchReply, LaunchRequest } from './launcher-protocol';

/**
 * Why git is not spawned by the worker itself: Linux forks a process by copying its page tables,
 * so spawn() blocks the event loop for a time that grows with the parent's memory. Measured with
 * `git --version` on this machine: 1.4 ms of blocked loop from a bare Node process (50 MiB RSS),
 * 8.7 ms from one of 170 MiB, 17 ms at 400 MiB; the worker sits at 100-150 MiB. Every compare,
 * large blob, archive and history walk paid that once per git process, on the worker's one thread.
 *
 * So a small process of Node's core modules alone (launcher-process.ts) forks git instead. Bytes
 * do not pass through it: for each run the worker makes a connected Unix socket pair (a listener
 * at an address of its own, one connect, one accept) and hands the accepted end's file descriptor
 * to the launcher with the request; git gets it as stdin and stdout, so git and the worker talk
 * directly, as with spawn(). Only the exit code, the start of stderr and kill requests go over the
 * launcher's IPC channel.
 */

/** Compiled beside this file; tests running the TypeScript sources use the build's copy too. */
const LAUNCHER_ENTRY = resolve(__dirname, '..', '..', 'dist', 'git', 'launcher-process.js');
/** Its heap holds a map of runs and little else; small young and old generations keep its forks cheap. */
const LAUNCHER_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=64'];

export interface GitLauncher {
  spawn(file: string, args: string[], cwd: string, env: Record<string, string>): GitProcess;
  close(): void;
}

/**
 * A git run started by the launcher, shaped like a ChildProcess for the worker's callers: one
 * socket is both stdin (writes, `end()` half-closes it so git sees EOF) and stdout (reads);
 * stderr is the start of git's stderr, delivered at exit; 'exit' and then 'close' come once git has
 * exited and its output has been read to the end.
 */
class LaunchedGit extends EventEmitter implements GitProcess {
  readonly stdin: Socket;
  readonly stdout: Socket;
  readonly stderr = new Readable({ read() {} });
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private socketClosed = false;
  private closed = false;

  constructor(
    readonly id: number,
    readonly cwd: string,
    socket: Socket,
    private readonly sendKill: (id: number, signal: NodeJS.Signals) => boolean,
  ) {
    super();
    this.stdin = socket;
    this.stdout = socket;
    // A write after git stopped reading fails with EPIPE, as a pipe's would; the exit says what happened.
    socket.on('error', () => {});
    socket.on('close', () => {
      this.socketClosed = true;
      this.settle();
    });
    this.stderr.on('end', () => this.settle());
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.exit) return false;
    return this.sendKill(this.id, signal);
  }

  ended(code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    if (this.exit) return;
    this.exit = { code, signal };
    if (stderr) this.stderr.push(Buffer.from(stderr, 'utf8'));
    this.stderr.push(null);
    this.emit('exit', code, signal);
    this.settle();
  }

  failed(error: Error): void {
    this.emit('error', error);
  }

  /** 'close' once git has exited, its stdout has been read to the end, and a reader of stderr has had all of it. */
  private settle(): void {
    if (this.closed || !this.exit || !this.socketClosed) return;
    if (this.stderr.readableFlowing === true && !this.stderr.readableEnded) return;
    this.closed = true;
    this.emit('close', this.exit.code, this.exit.signal);
  }
}

/** Starts the launcher process (again, if it died) on first use; runs in flight when it dies fail. */
export function createGitLauncher(): GitLauncher {
  let launcher: ChildProcess | null = null;
  let nextId = 1;
  const runs = new Map<number, LaunchedGit>();
  /** Each run's one-connection listener, until its connection arrives or the run is given up. */
  const listeners = new Map<number, Server>();
  const instance = `${process.pid}-${Date.now().toString(36)}`;

  const onReply = (reply: LaunchReply) => {
    const run = runs.get(reply.id);
    if (!run) return;
    if (reply.op === 'error') {
      // spawn() from the worker ran in the same tick as the handler's check that the repository
      // exists; here the folder can be deleted in between (a project deleted mid-request). That
      // is the repository not being found, as the check would have said, not a failure.
      const gone = !existsSync(run.cwd);
      return run.failed(
        gone
          ? gitError('REPOSITORY_NOT_FOUND', 'the repository was removed before git started')
          : new Error(reply.message),
      );
    }
    runs.delete(reply.id);
    run.ended(reply.code, reply.signal, reply.stderr);
  };

  /** A run that will never be answered: it fails, then ends and closes; at most once. */
  const abort = (id: number, error: Error) => {
    const run = runs.get(id);
    if (!run) return;
    runs.delete(id);
    listeners.get(id)?.close();
    listeners.delete(id);
    run.failed(error);
    run.stdout.destroy();
    run.ended(null, null, '');
  };

  const start = (): ChildProcess => {
    const child = fork(LAUNCHER_ENTRY, [], {
      execArgv: LAUNCHER_FLAGS,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    child.on('message', onReply);
    child.on('exit', () => {
      if (launcher === child) launcher = null;
      for (const id of runs.keys()) abort(id, new Error('the git launcher exited'));
    });
    // The launcher must not keep a finished worker (or a test process) alive; live runs have sockets that do.
    child.unref();
    child.channel?.unref();
    return child;
  };

  const send = (request: LaunchRequest, handle?: Parameters<ChildProcess['send']>[1]) =>
    new Promise<void>((done, fail) => {
      launcher ??= start();
      const sent = launcher.send(request, handle, (error) => (error ? fail(error) : done()));
      if (!sent && !launcher.connected) fail(new Error('the git launcher is not running'));
    });

  return {
    spawn(file, args, cwd, env) {
      const id = nextId++;
      // An abstract Unix address (no file to clean up), used for this one connection.
      const listener = createServer({ pauseOnConnect: true });
      listeners.set(id, listener);
      listener.listen(`\0hub-git-${instance}-${id}`);
      const socket = connect(`\0hub-git-${instance}-${id}`);
      const run = new LaunchedGit(id, cwd, socket, (runId, signal) => {
        send({ op: 'kill', id: runId, signal }).catch(() => {});
        return true;
      });
      runs.set(id, run);
      let connected = false;
      socket.once('connect', () => (connected = true));
      // Before its connection (no free descriptor, say) the socket's error is the run's: it never started.
      socket.once('error', (error) => connected || abort(id, error));
      listener.once('error', (error) => abort(id, error));
      listener.once('connection', (theirs: Socket) => {
        listener.close();
        listeners.delete(id);
        // The native handle, not the socket: a socket would start reading in the launcher and take git's stdin.
        const handle = (theirs as unknown as { _handle: Parameters<ChildProcess['send']>[1] })._handle;
        send({ op: 'spawn', id, file, args, cwd, env }, handle)
          .catch((error: Error) => abort(id, error))
          // Sent or not, the worker's copy goes: git (or no one) holds that end now.
          .finally(() => theirs.destroy());
      });
      return run;
    },
    close() {
      launcher?.disconnect();
      launcher = null;
    },
  };
}
