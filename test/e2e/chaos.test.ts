import { runChaos } from '../chaos/chaos';

// A bounded `npm run chaos`: a stack of its own under load, one service killed with SIGKILL,
// Postgres crashed and started again, and the git worker killed in the middle of a push.
describe('chaos, bounded', () => {
  it('keeps other routes answering, answers 502/503 with a JSON message on the killed routes, recovers, and loses no event or push', async () => {
    const figures = await runChaos({
      faults: [{ kind: 'kill', process: 'membership' }, { kind: 'postgres' }, { kind: 'push-kill', afterMs: 300 }],
      workers: 4,
      calmMs: 2_000,
      log: () => {},
    });
    expect(figures.faultsInjected).toBe(3);
    // postgres.js unpatched threw from a setImmediate when Postgres restarted: projects died with it.
    expect(figures.crashed).toEqual([]);
    expect(figures.requests).toBeGreaterThan(0);
    // How fast the killed routes fail is `npm run chaos`'s to measure (failedSlowly), not a test's.
    expect(figures.samples.filter((line) => !line.startsWith('failed slowly'))).toEqual([]);
    expect({
      failedOutside: figures.failedOutside,
      failedBadly: figures.failedBadly,
      eventsLost: figures.eventsLost,
    }).toEqual({ failedOutside: 0, failedBadly: 0, eventsLost: 0 });
    expect(figures.eventsExpected).toBeGreaterThan(0);
    expect(figures.recoveries.every((r) => r.ms !== null)).toBe(true);
    expect(figures.pushKills).toEqual([
      {
        afterMs: 300,
        pushExit: expect.any(Number),
        outcome: expect.stringMatching(/^(complete|absent)$/),
        fsckClean: true,
        fsck: [],
        retryOk: true,
      },
    ]);
  }, 300_000);
});
