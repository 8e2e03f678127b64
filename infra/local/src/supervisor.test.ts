import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import type { RunningProcess } from './processes';
import { supervise } from './supervisor';

/** A stand-in process: `die()` makes it exit as SIGKILL would. */
function fakeProcess(name: string) {
  let exit!: (code: number | null) => void;
  const child = Object.assign(new EventEmitter(), {
    exitCode: null as number | null,
    signalCode: null as NodeJS.Signals | null,
    pid: 1,
  });
  const exited = new Promise<number | null>((resolve) => (exit = resolve));
  const die = () => {
    child.signalCode = 'SIGKILL';
    exit(null);
  };
  const running: RunningProcess = { name, child: child as unknown as ChildProcess, exited, stop: async () => die() };
  return { running, die };
}

const policy = { firstDelayMs: 1, maxDelayMs: 4, maxCrashes: 3, windowMs: 60_000 };

/** Supervises fake processes, each start recorded in `started`; the hooks are the test's to watch. */
function superviseFakes(hooks: { log?: (line: string) => void; onGiveUp?: (name: string) => void } = {}) {
  const started: Array<ReturnType<typeof fakeProcess>> = [];
  const supervised = supervise({
    name: 'svc',
    start: () => {
      started.push(fakeProcess('svc'));
      return started[started.length - 1].running;
    },
    ready: async () => {},
    log: hooks.log ?? (() => {}),
    onGiveUp: hooks.onGiveUp ?? (() => {}),
    policy,
  });
  return { started, supervised };
}
/**
 * Resolves once every restart scheduled so far has started: Node runs timers in the order they
 * fall due, and no restart waits longer than the policy's longest delay.
 */
const pastAnyRestartDelay = () => new Promise((resolve) => setTimeout(resolve, policy.maxDelayMs));
const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  if (!check()) throw new Error('condition not met');
};

describe('supervise', () => {
  it('restarts a process that dies, and gives up (once, saying so) after repeated crashes', async () => {
    const lines: string[] = [];
    const gaveUp: string[] = [];
    const fakes = superviseFakes({ log: (line) => lines.push(line), onGiveUp: (name) => gaveUp.push(name) });
    const { started } = fakes;
    const supervised = await fakes.supervised;
    started[0].die();
    await until(() => started.length === 2);
    expect(supervised.current()).toBe(started[1].running);
    expect(supervised.restarts()).toBe(1);
    started[1].die();
    await until(() => started.length === 3);
    started[2].die();
    await until(() => gaveUp.length === 1);
    await pastAnyRestartDelay();
    expect(started).toHaveLength(3);
    expect(gaveUp).toEqual(['svc']);
    expect(lines.at(-1)).toMatch(/^svc was killed by SIGKILL: 3 crashes within 60 s, giving up on it$/);
  });

  it('does not restart a process it was asked to stop', async () => {
    const fakes = superviseFakes();
    const { started } = fakes;
    const supervised = await fakes.supervised;
    await supervised.stop();
    await pastAnyRestartDelay();
    expect(started).toHaveLength(1);
  });

  it('fails, without restarting, when the first start never gets ready', async () => {
    let starts = 0;
    await expect(
      supervise({
        name: 'svc',
        start: () => {
          starts++;
          return fakeProcess('svc').running;
        },
        ready: async () => {
          throw new Error('svc exited during start-up');
        },
        log: () => {},
        onGiveUp: () => {},
        policy,
      }),
    ).rejects.toThrow('svc exited during start-up');
    await pastAnyRestartDelay();
    expect(starts).toBe(1);
  });
});
