import fc from 'fast-check';
import { RenderedEntities } from './rendered';

describe('RenderedEntities', () => {
  it('answers a rendering only at the revision it was made for', () => {
    const rendered = new RenderedEntities(1_000);
    rendered.put(1, 'a', '{"id":1}');
    expect(rendered.get(1, 'a')).toBe('{"id":1}');
    expect(rendered.get(1, 'b')).toBeUndefined();
    expect(rendered.get(2, 'a')).toBeUndefined();
    rendered.put(1, 'b', '{"id":1,"x":2}');
    expect(rendered.get(1, 'a')).toBeUndefined();
    expect(rendered.get(1, 'b')).toBe('{"id":1,"x":2}');
    expect(rendered.held).toBe('{"id":1,"x":2}'.length);
  });

  it('evicts the least recently used past its budget', () => {
    const rendered = new RenderedEntities(30);
    rendered.put(1, 'r', '1'.repeat(10));
    rendered.put(2, 'r', '2'.repeat(10));
    rendered.put(3, 'r', '3'.repeat(10));
    expect(rendered.get(1, 'r')).toBeDefined(); // 1 is now the most recent
    rendered.put(4, 'r', '4'.repeat(10));
    expect(rendered.get(2, 'r')).toBeUndefined();
    expect([1, 3, 4].map((id) => rendered.get(id, 'r') !== undefined)).toEqual([true, true, true]);
    // Larger than the whole budget: answered, not kept.
    expect(rendered.put(5, 'r', '5'.repeat(31))).toHaveLength(31);
    expect(rendered.get(5, 'r')).toBeUndefined();
  });

  it('agrees with a plain model and never holds more than its budget', () => {
    const op = fc.oneof(
      fc.record({
        put: fc.constant(true),
        id: fc.integer({ min: 1, max: 8 }),
        revision: fc.constantFrom('a', 'b'),
        size: fc.integer({ min: 1, max: 40 }),
      }),
      fc.record({
        put: fc.constant(false),
        id: fc.integer({ min: 1, max: 8 }),
        revision: fc.constantFrom('a', 'b'),
        size: fc.constant(0),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const budget = 100;
        const rendered = new RenderedEntities(budget);
        const latest = new Map<number, { revision: string; json: string }>();
        for (const { put, id, revision, size } of ops) {
          if (put) {
            const json = `${id}${revision}`.padEnd(size, '.');
            rendered.put(id, revision, json);
            latest.set(id, { revision, json });
          } else {
            const got = rendered.get(id, revision);
            // Whatever it answers is the latest rendering at that revision; it may have evicted it.
            if (got !== undefined) expect(latest.get(id)).toEqual({ revision, json: got });
          }
          expect(rendered.held).toBeLessThanOrEqual(budget);
        }
      }),
    );
  });
});
