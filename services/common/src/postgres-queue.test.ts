import { dirname, join } from 'node:path';
import fc from 'fast-check';

// patches/postgres@3.4.9.patch: the queue behind postgres.js's pool (its idle, busy and waiting
// connections and queries). Unpatched, a queue that never ran empty kept every shifted slot, and
// remove() scanned them all: each query on a pool with idle connections cost more than the last.

const Queue = require(join(dirname(require.resolve('postgres')), 'queue.js')) as <T>(initial?: T[]) => {
  length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
};

/** An array that records the largest size it reached: the queue copies it with slice(), which keeps the class. */
class Measured<T> extends Array<T> {
  static largest = 0;
  override push(...items: T[]): number {
    const length = super.push(...items);
    Measured.largest = Math.max(Measured.largest, length);
    return length;
  }
}

describe("postgres.js's pool queue (patched)", () => {
  it('keeps order, length and removal as a plain list would, across any sequence of operations', () => {
    const operation = fc.oneof(
      fc.record({ op: fc.constant('push' as const) }),
      fc.record({ op: fc.constant('shift' as const) }),
      fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 400 }), (operations) => {
        const queue = Queue<number>();
        const model: number[] = [];
        let next = 0;
        for (const step of operations) {
          if (step.op === 'push') {
            queue.push(next);
            model.push(next++);
          } else if (step.op === 'shift') {
            // The pool shifts only a queue with something in it.
            if (model.length) expect(queue.shift()).toBe(model.shift());
          } else {
            // Sometimes one that is there, sometimes one already gone.
            const value = step.pick % (next + 1);
            const at = model.indexOf(value);
            expect(queue.remove(value)).toBe(at === -1 ? null : value);
            if (at !== -1) model.splice(at, 1);
          }
          expect(queue.length).toBe(model.length);
        }
        const rest: number[] = [];
        while (queue.length) rest.push(queue.shift()!);
        expect(rest).toEqual(model);
      }),
    );
  });

  it('stays as large as what it holds when it never runs empty (a pool with idle connections while others work)', () => {
    Measured.largest = 0;
    const idle = Array.from({ length: 6 }, (_, i) => ({ connection: i }));
    const queue = Queue(Measured.from(idle));
    const served = new Set<object>();
    for (let query = 0; query < 100_000; query++) {
      // As the pool does: take the first idle connection (move() then removes it from the queue
      // it was shifted from, finding nothing), and have it back when the query is done.
      const connection = queue.shift()!;
      if (queue.remove(connection) !== null) throw new Error('a shifted connection was still queued');
      served.add(connection);
      queue.push(connection);
    }
    expect(served.size).toBe(6);
    expect(queue.length).toBe(6);
    expect(Measured.largest).toBeLessThan(100);
  });
});
