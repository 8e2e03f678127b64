/** Messages between the worker and its git launcher process (over Node's IPC channel, as JSON). */
export type LaunchRequest =
  /** Start `file args` in `cwd`; the stream handle sent with it is git's stdin and stdout. */
  | { op: 'spawn'; id: number; file: string; args: string[]; cwd: string; env: Record<string, string> }
  | { op: 'kill'; id: number; signal: NodeJS.Signals };

export type LaunchReply =
  | { op: 'error'; id: number; message: string }
  /** The run is over: git exited (code or signal) and its stderr closed. */
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null; stderr: string };
