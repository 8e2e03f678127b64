import type { Logger, Redis, StreamedEvent } from '@hub/common';
import { compareStreamIds, createLiveStreams, cursorOf, streamIdOfCursor, type LiveEntry } from './live-streams';

const logger = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;

/**
 * A Redis holding one stream in memory: XADD by the test, XRANGE/XREVRANGE/XINFO as Redis answers
 * them, and XREAD BLOCK that waits for the next XADD (or its timeout). `hold` makes the next XRANGE
 * wait until released, so entries can be added while a catch-up reads.
 */
function memoryRedis(trimmed = false) {
  const entries: Array<[string, string[]]> = [];
  let seq = 0;
  /** The newest outbox id the tail's XREAD has answered. */
  let tailSaw = '';
  const wakeReaders: Array<() => void> = [];
  let held: { reached: () => void; release: Promise<void> } | null = null;
  const after = (id: string) => entries.filter(([entryId]) => compareStreamIds(entryId, id) > 0);
  const redis = {
    xrange: async (_stream: string, start: string, _end: string, _count: string, count: number) => {
      if (held) {
        const { reached, release } = held;
        held = null;
        reached();
        await release;
      }
      return after(start.slice(1)).slice(0, count);
    },
    xrevrange: async () => entries.slice(-1),
    xinfo: async () => [
      'length',
      entries.length,
      'entries-added',
      seq + (trimmed ? 1 : 0),
      'first-entry',
      entries[0] ?? null,
    ],
    xread: async (...args: unknown[]) => {
      const lastId = String(args.at(-1));
      if (after(lastId).length === 0)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          wakeReaders.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      const found = after(lastId);
      if (found.length) tailSaw = found.at(-1)![1][1]!;
      return found.length ? [['events:notes', found]] : null;
    },
    disconnect: () => {},
  };
  return {
    redis: redis as unknown as Redis,
    tailSaw: () => tailSaw,
    add(outboxId: string) {
      seq++;
      entries.push([`${1000 + seq}-0`, ['outbox_id', outboxId, 'type', 'issue.updated', 'payload', '{}']]);
      for (const wake of wakeReaders.splice(0)) wake();
    },
    /** The next XRANGE waits: resolves when it is reached, with the function that lets it go on. */
    holdNextRange(): Promise<() => void> {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      return new Promise((resolve) => {
        held = { reached: () => resolve(release), release: released };
      });
    },
  };
}

const read = (event: StreamedEvent) => ({ key: `notes:${event.type}`, event, payload: {} }) as never;
const open = { room: () => true, waitForRoom: async () => {}, failed: () => {} };

async function until(check: () => boolean) {
  const deadline = Date.now() + 2000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('stream ids and cursors', () => {
  it('orders ids by time, then sequence, numerically', () => {
    expect(compareStreamIds('9-0', '10-0')).toBe(-1);
    expect(compareStreamIds('10-2', '10-10')).toBe(-1);
    expect(compareStreamIds('10-2', '10-2')).toBe(0);
    expect(compareStreamIds('18446744073709551615-1', '18446744073709551615-0')).toBe(1);
    expect(compareStreamIds('18446744073709551616-0', '18446744073709551615-9')).toBe(1);
    expect(compareStreamIds('1795000000000-0', '999999999999-5')).toBe(1);
    // A cursor may carry leading zeros: they change nothing.
    expect(compareStreamIds('007-1', '7-0')).toBe(1);
    expect(compareStreamIds('0-01', '00-1')).toBe(0);
    expect(compareStreamIds('10-0', '010-1')).toBe(-1);
  });

  it('reads back its own cursors, and refuses another stream’s, a tampered one and junk', () => {
    const cursor = cursorOf('notes', '1700000000000-3');
    expect(streamIdOfCursor(cursor, 'notes')).toBe('1700000000000-3');
    expect(() => streamIdOfCursor(cursor, 'mergerequests')).toThrow(/not a cursor of this subscription/);
    expect(() => streamIdOfCursor(cursor + 'x', 'notes')).toThrow(/not a cursor/);
    expect(() => streamIdOfCursor(cursorOf('notes', '1-0; DROP'), 'notes')).toThrow(/not a cursor/);
    expect(() => streamIdOfCursor('', 'notes')).toThrow(/not a cursor/);
  });
});

describe('following a stream', () => {
  it('hands over from a catch-up to the tail without a gap or a repeat', async () => {
    const store = memoryRedis();
    for (let i = 1; i <= 3; i++) store.add(String(i));
    const streams = createLiveStreams({ blocking: store.redis, redis: store.redis, services: ['notes'], read, logger });
    const seen: string[] = [];
    const deliver = (entry: LiveEntry) => seen.push(entry.event!.event.id);
    // The catch-up's read waits while entries arrive, which the tail hands over meanwhile.
    const holding = store.holdNextRange();
    const following = streams.follow('notes', '1001-0', deliver, open);
    const release = await holding;
    store.add('4');
    store.add('5');
    await until(() => store.tailSaw() === '5');
    release();
    const follower = await following;
    store.add('6');
    await until(() => seen.length >= 5);
    expect(seen).toEqual(['2', '3', '4', '5', '6']);
    follower.stop();
    store.add('7');
    await until(() => store.tailSaw() === '7');
    expect(seen).toEqual(['2', '3', '4', '5', '6']);
    await streams.stop();
  });

  it('catches up only as fast as the receiver makes room, and says which entries came live', async () => {
    const store = memoryRedis();
    for (let i = 1; i <= 4; i++) store.add(String(i));
    const streams = createLiveStreams({ blocking: store.redis, redis: store.redis, services: ['notes'], read, logger });
    const seen: Array<[string, boolean]> = [];
    let room = 2;
    let makeRoom = () => {};
    const flow = {
      room: () => seen.length < room,
      waitForRoom: () => new Promise<void>((resolve) => (makeRoom = resolve)),
      failed: () => {},
    };
    const following = streams.follow(
      'notes',
      '1000-0',
      (entry, live) => seen.push([entry.event!.event.id, live]),
      flow,
    );
    await until(() => seen.length === 2);
    await following;
    room = 10;
    makeRoom();
    await until(() => seen.length === 4);
    store.add('5');
    await until(() => seen.length === 5);
    expect(seen).toEqual([
      ['1', false],
      ['2', false],
      ['3', false],
      ['4', false],
      ['5', true],
    ]);
    await streams.stop();
  });

  it('tells the receiver when its catch-up cannot finish, and hands over nothing more', async () => {
    const store = memoryRedis();
    store.add('1');
    const streams = createLiveStreams({ blocking: store.redis, redis: store.redis, services: ['notes'], read, logger });
    (store.redis as unknown as { xrange: () => Promise<never> }).xrange = async () => {
      throw new Error('Redis is away');
    };
    const seen: string[] = [];
    let failure: unknown = null;
    await streams.follow('notes', '1000-0', (entry) => seen.push(entry.event!.event.id), {
      ...open,
      failed: (error) => (failure = error),
    });
    await until(() => failure !== null);
    expect(String(failure)).toMatch(/Redis is away/);
    store.add('2');
    await until(() => store.tailSaw() === '2');
    expect(seen).toEqual([]);
    await streams.stop();
  });

  it('starts at the stream’s end without a cursor', async () => {
    const store = memoryRedis();
    store.add('1');
    const streams = createLiveStreams({ blocking: store.redis, redis: store.redis, services: ['notes'], read, logger });
    const seen: string[] = [];
    await streams.follow('notes', null, (entry) => seen.push(entry.event!.event.id), open);
    store.add('2');
    await until(() => seen.length > 0);
    expect(seen).toEqual(['2']);
    await streams.stop();
  });

  it('hands a routed follower only the entries of its route, and an unrouted one every entry', async () => {
    const store = memoryRedis();
    // Odd outbox ids are of route "odd", even ones of "even".
    const routes = (_service: string, event: { event: { id: string } }) => [
      Number(event.event.id) % 2 ? 'odd' : 'even',
    ];
    const streams = createLiveStreams({
      blocking: store.redis,
      redis: store.redis,
      services: ['notes'],
      read,
      routes: routes as never,
      logger,
    });
    const seen: Record<string, string[]> = { odd: [], even: [], all: [] };
    const follow = (name: string, route?: string) =>
      streams.follow('notes', null, (entry) => seen[name]!.push(entry.event!.event.id), open, route);
    const [odd] = await Promise.all([follow('odd', 'odd'), follow('even', 'even'), follow('all')]);
    for (const id of ['1', '2', '3', '4']) store.add(id);
    await until(() => seen.all!.length === 4);
    expect(seen).toEqual({ odd: ['1', '3'], even: ['2', '4'], all: ['1', '2', '3', '4'] });
    odd.stop();
    store.add('5');
    await until(() => seen.all!.length === 5);
    expect(seen.odd).toEqual(['1', '3']);
    await streams.stop();
  });

  it('refuses a cursor older than what a trimmed stream keeps', async () => {
    const store = memoryRedis(true);
    store.add('1');
    store.add('2');
    const streams = createLiveStreams({ blocking: store.redis, redis: store.redis, services: ['notes'], read, logger });
    await expect(streams.follow('notes', '5-0', () => {}, open)).rejects.toThrow(/too old/);
    await expect(streams.follow('notes', '1001-0', () => {}, open)).resolves.toBeTruthy();
    await streams.stop();
  });
});
