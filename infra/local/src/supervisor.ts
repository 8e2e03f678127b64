import type { RunningProcess } from './processes';
import { sleep } from './system';

/** How a supervisor restarts: first delay, doubling up to the longest, and when it gives up. */
export interface RestartPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Crashes within `windowMs` that make it give up (a process that cannot start crashes fast). */
  maxCrashes: number;
  windowMs: number;
}

export const DEFAULT_POLICY: RestartPolicy = { firstDelayMs: 250, maxDelayMs: 8_000, maxCrashes: 5, windowMs: 60_000 };

export interface Supervised {
  name: string;
  /** The process running now (a new one after each restart). */
  current: () => RunningProcess;
  /** Restarts so far. */
  restarts: () => number;
  /** Stops the process and its supervision. */
  stop: () => Promise<void>;
}

/**
 * Starts one process, waits until it is ready (failing as it does), then keeps it running: when it
 * exits without having been asked to, it is started again after a delay that doubles with each
 * crash in a row, so a process that dies at once does not spin. After `maxCrashes` crashes within
 * `windowMs`, it gives up and says so (`onGiveUp`).
 */
export async function supervise(options: {
  name: string;
  start: () => RunningProcess;
  ready: (process: RunningProcess) => Promise<void>;
  log: (line: string) => void;
  /** Each new process (the first too), e.g. to record its pid. */
  onStart?: (process: RunningProcess) => void;
  onGiveUp: (name: string) => void;
  policy?: RestartPolicy;
}): Promise<Supervised> {
  const policy = options.policy ?? DEFAULT_POLICY;
  const crashes: number[] = [];
  let restarts = 0;
  let stopped = false;
  // A process that fails to start the first time fails the start-up instead.
  let watching = false;
  let current: RunningProcess;

  const launch = () => {
    const running = options.start();
    current = running;
    options.onStart?.(running);
    void running.exited.then((code) => {
      if (!watching || stopped || running !== current) return;
      void crashed(code, running.child.signalCode);
    });
    return running;
  };
  const crashed = async (code: number | null, signal: NodeJS.Signals | null) => {
    const now = Date.now();
    crashes.push(now);
    while (crashes.length && crashes[0] < now - policy.windowMs) crashes.shift();
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (crashes.length >= policy.maxCrashes) {
      options.log(
        `${options.name} ${how}: ${crashes.length} crashes within ${policy.windowMs / 1000} s, giving up on it`,
      );
      stopped = true;
      options.onGiveUp(options.name);
      return;
    }
    const delay = Math.min(policy.firstDelayMs * 2 ** (crashes.length - 1), policy.maxDelayMs);
    options.log(`${options.name} ${how}; restarting it in ${delay} ms`);
    await sleep(delay);
    if (stopped) return;
    restarts++;
    const running = launch();
    try {
      await options.ready(running);
      options.log(`${options.name} is back`);
    } catch (error) {
      // Dying before ready is a crash of its own, counted by the exit handler above.
      if (running.child.exitCode === null && running.child.signalCode === null)
        options.log(`${options.name}: ${(error as Error).message}`);
    }
  };

  const first = launch();
  try {
    await options.ready(first);
  } catch (error) {
    await first.stop();
    throw error;
  }
  watching = true;
  if (first.child.exitCode !== null || first.child.signalCode !== null)
    void crashed(first.child.exitCode, first.child.signalCode);
  return {
    name: options.name,
    current: () => current,
    restarts: () => restarts,
    stop: async () => {
      stopped = true;
      await current.stop();
    },
  };
}
