import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  consumeEvents,
  consumerAliveKey,
  createLogger,
  createRedis,
  createSql,
  eventStream,
  handleOnce,
  migrate,
  type Redis,
  type Sql,
  type StreamedEvent,
} from '@hub/common';
import { eventually, unique } from '../support/api';
import { stackInfo } from '../support/stack-info';

// The test stack's Redis and Postgres, with streams and a schema of this test's own.
describe('consumer groups over the event streams', () => {
  const logger = createLogger('consumer-test', 'silent');
  let writer: Redis;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    writer = createRedis(stackInfo().redisUrl);
    // No offline queue: wait for the connection before the first command.
    if (writer.status !== 'ready') await new Promise((resolve) => writer.once('ready', resolve));
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    writer.disconnect();
  });

  /** Writes an entry the way the outbox relay does. */
  const publish = (service: string, outboxId: number, type = 'thing.happened', key?: string | null) =>
    writer.xadd(
      eventStream(service),
      '*',
      'type',
      type,
      'outbox_id',
      String(outboxId),
      'payload',
      JSON.stringify({ n: outboxId, key }),
      'occurred_at',
      new Date().toISOString(),
    );

  const consumer = (
    service: string,
    group: string,
    handle: (event: StreamedEvent) => Promise<void>,
    order: Pick<Parameters<typeof consumeEvents>[0], 'orderKeys' | 'concurrency'> = {},
  ) => {
    const running = consumeEvents({
      redis: createRedis(stackInfo().redisUrl, { blocking: true }),
      group,
      services: [service],
      logger,
      handle,
      ...order,
    });
    stops.push(running.stop);
    return running;
  };

  it('gives each event to one member of a group, and every event to each group', async () => {
    const service = unique('svc');
    const seenA: string[] = [];
    const seenB: string[] = [];
    const seenOther: string[] = [];
    consumer(service, 'g1', async (e) => void seenA.push(e.id));
    consumer(service, 'g1', async (e) => void seenB.push(e.id));
    consumer(service, 'g2', async (e) => void seenOther.push(e.id));
    for (let i = 1; i <= 40; i++) await publish(service, i);
    const all = Array.from({ length: 40 }, (_, i) => String(i + 1));
    await eventually(async () => {
      expect([...seenA, ...seenB].sort()).toEqual([...all].sort());
      expect([...seenOther].sort()).toEqual([...all].sort());
    });
  });

  it('starts a new group from the oldest entry the stream holds', async () => {
    const service = unique('svc');
    await publish(service, 1);
    await publish(service, 2);
    const seen: string[] = [];
    consumer(service, 'late', async (e) => void seen.push(e.id));
    await eventually(async () => expect(seen).toEqual(['1', '2']));
  });

  it('retries an event whose handler failed, in order, before later ones', async () => {
    const service = unique('svc');
    let failures = 2;
    const handled: string[] = [];
    consumer(service, 'g', async (e) => {
      if (e.id === '1' && failures-- > 0) throw new Error('not yet');
      handled.push(e.id);
    });
    await publish(service, 1);
    await publish(service, 2);
    await eventually(async () => expect(handled).toEqual(['1', '2']), 10_000);
  });

  it('reads its own pending entries at start and after a failure, not before every read of new ones', async () => {
    const service = unique('svc');
    const redis = createRedis(stackInfo().redisUrl, { blocking: true });
    // Which entries each XREADGROUP asked for: '0' its own pending ones, '>' new ones.
    const reads: string[] = [];
    const xreadgroup = redis.xreadgroup.bind(redis) as (...args: unknown[]) => Promise<unknown>;
    (redis as unknown as { xreadgroup: (...args: unknown[]) => Promise<unknown> }).xreadgroup = (...args) => {
      reads.push(String(args[args.length - 1]));
      return xreadgroup(...args);
    };
    const handled: string[] = [];
    let failOn = '';
    const running = consumeEvents({
      redis,
      group: 'g',
      services: [service],
      logger,
      handle: async (e) => {
        if (e.id === failOn) {
          failOn = '';
          throw new Error('not yet');
        }
        handled.push(e.id);
      },
    });
    stops.push(running.stop);
    for (let i = 1; i <= 10; i++) {
      await publish(service, i);
      await eventually(async () => expect(handled).toHaveLength(i));
    }
    expect(reads.filter((from) => from === '0')).toHaveLength(1);
    expect(reads.filter((from) => from === '>').length).toBeGreaterThanOrEqual(10);
    failOn = '11';
    await publish(service, 11);
    await publish(service, 12);
    await eventually(async () => expect(handled.slice(10)).toEqual(['11', '12']), 10_000);
    // The retry came from a read of its own pending entries, and one more found none left.
    expect(reads.filter((from) => from === '0').length).toBeGreaterThanOrEqual(3);
  });

  it('acknowledges the events a consumer does not want without handing them to it', async () => {
    const service = unique('svc');
    const handled: string[] = [];
    const running = consumeEvents({
      redis: createRedis(stackInfo().redisUrl, { blocking: true }),
      group: 'picky',
      services: [service],
      logger,
      wants: (event) => event.type === 'wanted.thing',
      handle: async (e) => void handled.push(e.id),
    });
    stops.push(running.stop);
    for (let i = 1; i <= 6; i++) await publish(service, i, i % 3 === 0 ? 'wanted.thing' : 'other.thing');
    await eventually(async () => {
      expect(handled).toEqual(['3', '6']);
      // Every entry acknowledged: none left pending with the group.
      const [pending] = (await writer.xpending(eventStream(service), 'picky')) as [number];
      expect(pending).toBe(0);
    });
  });

  describe('members that are gone', () => {
    /** Entries 1 and 2 delivered to `name`, which never acknowledges them (SIGKILL right after reading). */
    async function leftPendingBy(service: string, group: string, name: string) {
      await publish(service, 1);
      await publish(service, 2);
      await writer.xgroup('CREATE', eventStream(service), group, '0');
      const read = (await writer.xreadgroup(
        'GROUP',
        group,
        name,
        'COUNT',
        10,
        'STREAMS',
        eventStream(service),
        '>',
      )) as Array<[string, unknown[]]>;
      expect(read[0][1]).toHaveLength(2);
    }
    const membersOf = async (service: string, group: string) =>
      ((await writer.xinfo('CONSUMERS', eventStream(service), group)) as Array<Array<string | number>>).map((fields) =>
        String(fields[1]),
      );

    it('takes over the entries a killed member left pending at once, not after claimIdleMs, and forgets that member', async () => {
      const [service, group] = [unique('svc'), unique('g')];
      await leftPendingBy(service, group, 'killed');
      const seen: string[] = [];
      consumer(service, group, async (e) => void seen.push(e.id));
      // claimIdleMs is a minute: only the takeover can hand them over within these 10 s.
      await eventually(async () => expect(seen).toEqual(['1', '2']), 10_000);
      await eventually(async () => expect(await membersOf(service, group)).not.toContain('killed'));
    });

    it('leaves a live member’s pending entries alone until its alive mark is gone', async () => {
      const [service, group] = [unique('svc'), unique('g')];
      await writer.set(consumerAliveKey(group, 'busy'), '1', 'PX', 60_000);
      await leftPendingBy(service, group, 'busy');
      const seen: string[] = [];
      consumer(service, group, async (e) => void seen.push(e.id));
      await publish(service, 3);
      await eventually(async () => expect(seen).toEqual(['3']));
      // Several takeover rounds (one a second) pass; the busy member keeps its entries.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(seen).toEqual(['3']);
      expect(await membersOf(service, group)).toContain('busy');
      await writer.del(consumerAliveKey(group, 'busy'));
      await eventually(async () => expect(seen).toEqual(['3', '1', '2']), 10_000);
    });

    it('keeps its own alive mark while it runs and removes it when stopped', async () => {
      const [service, group] = [unique('svc'), unique('g')];
      const running = consumer(service, group, async () => {});
      await eventually(async () => expect(await membersOf(service, group)).toHaveLength(1));
      const [name] = await membersOf(service, group);
      // Longer than one mark's life: it is renewed.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(await writer.exists(consumerAliveKey(group, name))).toBe(1);
      await running.stop();
      expect(await writer.exists(consumerAliveKey(group, name))).toBe(0);
    });
  });

  describe('with order keys', () => {
    /** The payload's key as the entry's one order key; a null key orders against everything. */
    const byPayloadKey = { orderKeys: (e: StreamedEvent) => (e.payload.key === null ? null : [String(e.payload.key)]) };
    /**
     * Publishes entries 1, 2, 3 with these keys, then consumes them with entry 1's handler held
     * until `release` (and entry 1 failing `failures` times first); `handled` lists the ids in
     * the order their handlers finished.
     */
    async function consumeThree(
      keys: Array<string | null>,
      options: { orderKeys?: (e: StreamedEvent) => string[] | null; failures?: number } = {},
    ) {
      const service = unique('svc');
      for (const [i, key] of keys.entries()) await publish(service, i + 1, 't', key);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      if (options.failures) release();
      let failures = options.failures ?? 0;
      const handled: string[] = [];
      consumer(
        service,
        'g',
        async (e) => {
          if (e.id === '1' && failures-- > 0) throw new Error('not yet');
          if (e.id === '1') await released;
          handled.push(e.id);
        },
        { orderKeys: options.orderKeys ?? byPayloadKey.orderKeys },
      );
      return { handled, release };
    }

    it('keeps one key’s entries in order while another key’s go past a slow one', async () => {
      const { handled, release } = await consumeThree(['a', 'a', 'b']);
      await eventually(async () => expect(handled).toEqual(['3']));
      // 2 shares a key with 1, which is still running: it has not started.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(handled).toEqual(['3']);
      release();
      await eventually(async () => expect(handled).toEqual(['3', '1', '2']));
    });

    it('holds back a failed entry’s key until its retry succeeds; other keys go on', async () => {
      const { handled } = await consumeThree(['a', 'a', 'b'], { failures: 2 });
      await eventually(async () => expect(handled).toEqual(['3', '1', '2']), 10_000);
    });

    it('makes an entry without keys wait for every earlier one, and every later one wait for it', async () => {
      const { handled, release } = await consumeThree(['a', null, 'b']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handled).toEqual([]);
      release();
      await eventually(async () => expect(handled).toEqual(['1', '2', '3']));
    });

    it('handles an entry whose keys cannot be told (the function threw) as one without keys', async () => {
      const orderKeys = (e: StreamedEvent) => {
        if (e.payload.key === 'unreadable') throw new Error('no keys here');
        return [String(e.payload.key)];
      };
      const { handled, release } = await consumeThree(['a', 'unreadable', 'b'], { orderKeys });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handled).toEqual([]);
      release();
      await eventually(async () => expect(handled).toEqual(['1', '2', '3']));
    });

    it('runs at most `concurrency` handlers at once', async () => {
      const service = unique('svc');
      for (let i = 1; i <= 12; i++) await publish(service, i, 't', `k${i}`);
      let running = 0;
      let most = 0;
      const handled: string[] = [];
      consumer(
        service,
        'g',
        async (e) => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 30));
          running--;
          handled.push(e.id);
        },
        { ...byPayloadKey, concurrency: 3 },
      );
      await eventually(async () => expect(handled).toHaveLength(12));
      expect(most).toBe(3);
    });
  });

  describe('handleOnce', () => {
    const schema = unique('consumer_test_');
    const noMigrations = mkdtempSync(join(tmpdir(), 'no-migrations-'));
    let sql: Sql;
    beforeAll(async () => {
      sql = createSql({ url: stackInfo().databaseUrl, schema, max: 2 });
      await migrate({ sql, schema, dir: noMigrations, logger });
      await sql`create table effects (n int)`;
    });
    afterAll(async () => {
      await sql.unsafe(`drop schema "${schema}" cascade`);
      await sql.end();
      rmSync(noMigrations, { recursive: true, force: true });
    });

    it('applies a redelivered event once, and not at all when the effect fails', async () => {
      const event: StreamedEvent = {
        id: '7',
        streamId: '1-0',
        service: 'svc',
        type: 't',
        payload: {},
        occurredAt: new Date().toISOString(),
      };
      const effect = async (tx: Parameters<Parameters<typeof handleOnce>[2]>[0]) =>
        void (await tx`insert into effects values (1)`);
      expect(await handleOnce(sql, event, effect)).toBe(true);
      expect(await handleOnce(sql, event, effect)).toBe(false);
      const failing = { ...event, id: '8' };
      await expect(handleOnce(sql, failing, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await handleOnce(sql, failing, effect)).toBe(true);
      const [{ count }] = await sql`select count(*)::int as count from effects`;
      expect(count).toBe(2);
    });
  });
});
