import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogger,
  createRedis,
  createSql,
  eventStream,
  migrate,
  parseStreamEntry,
  recordEvent,
  startOutboxRelay,
  type Redis,
  type Sql,
} from '@hub/common';
import { freePort, startRedis } from '@hub/local';
import { eventually, unique } from '../support/api';
import { stackInfo } from '../support/stack-info';
import { tempDir } from '../support/global-setup';

// Real Postgres (the test stack's) and a Redis of this test's own, so it can be taken down.
describe('transactional outbox and relay', () => {
  const service = unique('outbox_test_');
  const logger = createLogger('outbox-test', 'silent');
  const emptyMigrations = mkdtempSync(join(tmpdir(), 'no-migrations-'));
  let sql: Sql;
  let redisDir: string;
  let redisPort: number;
  let redisServer: Awaited<ReturnType<typeof startRedis>>;
  let reader: Redis;
  let relayRedis: Redis;
  let relay: { stop: () => Promise<void> } | null = null;

  const record = (type: string, payload: Record<string, unknown> = {}) =>
    sql.begin((tx) => recordEvent(tx, service, { type, payload }));
  const streamed = async () => {
    const entries = (await reader.xrange(eventStream(service), '-', '+')) as Array<[string, string[]]>;
    return entries.map(([id, fields]) => parseStreamEntry(service, id, fields));
  };
  const waiting = async () => (await sql<{ count: number }[]>`select count(*)::int as count from outbox`)[0].count;
  const startRelay = () =>
    (relay = startOutboxRelay({ sql, redis: relayRedis, service, logger, maxLen: 1000, pollMs: 50 }));

  beforeAll(async () => {
    sql = createSql({ url: stackInfo().databaseUrl, schema: service, max: 4 });
    await migrate({ sql, schema: service, dir: emptyMigrations, logger });
    redisDir = tempDir('hub-redis-');
    redisPort = await freePort();
    redisServer = await startRedis({ dir: redisDir, port: redisPort, log: () => {} });
    reader = createRedis(redisServer.url);
    relayRedis = createRedis(redisServer.url);
    startRelay();
  });

  afterAll(async () => {
    await relay?.stop();
    reader.disconnect();
    relayRedis.disconnect();
    await redisServer.stop();
    await sql.unsafe(`drop schema "${service}" cascade`);
    await sql.end();
    rmSync(redisDir, { recursive: true, force: true });
    rmSync(emptyMigrations, { recursive: true, force: true });
  });

  it('moves committed events to the stream in order, and never a rolled-back one', async () => {
    await record('thing.one', { n: 1, nested: { snake_case: true } });
    await expect(
      sql.begin(async (tx) => {
        await recordEvent(tx, service, { type: 'thing.rolled_back', payload: {} });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await record('thing.two', { n: 2 });
    await record('thing.three', { n: 3 });
    await eventually(async () =>
      expect((await streamed()).map((e) => e.type)).toEqual(['thing.one', 'thing.two', 'thing.three']),
    );
    const [first] = await streamed();
    expect(first.payload).toEqual({ n: 1, nested: { snake_case: true } });
    expect(first.occurredAt).toEqual(expect.any(String));
    // The relay deletes the rows after the stream has them: the stream can be read first.
    await eventually(async () => expect(await waiting()).toBe(0));
  });

  it('keeps events in Postgres while Redis is down and catches up, in order, when it is back', async () => {
    await redisServer.stop();
    await record('during.outage.1');
    await record('during.outage.2');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await waiting()).toBe(2);
    // Same port and data: the local Redis keeps an append-only file, so what it had stays.
    redisServer = await startRedis({ dir: redisDir, port: redisPort, log: () => {} });
    await eventually(async () => expect(await waiting()).toBe(0), 15_000);
    expect((await streamed()).map((e) => e.type)).toEqual([
      'thing.one',
      'thing.two',
      'thing.three',
      'during.outage.1',
      'during.outage.2',
    ]);
  });

  it('relays a lower id that commits after a higher one was relayed', async () => {
    let commitFirst!: () => void;
    const held = new Promise<void>((resolve) => (commitFirst = resolve));
    let recorded!: () => void;
    const lowerIdTaken = new Promise<void>((resolve) => (recorded = resolve));
    const slow = sql.begin(async (tx) => {
      await recordEvent(tx, service, { type: 'slow.lower.id', payload: {} });
      recorded();
      await held; // stays uncommitted while the next event is recorded, committed and relayed
    });
    await lowerIdTaken;
    await record('fast.higher.id');
    await eventually(async () => expect((await streamed()).map((e) => e.type)).toContain('fast.higher.id'));
    commitFirst();
    await slow;
    await eventually(async () => expect((await streamed()).map((e) => e.type)).toContain('slow.lower.id'));
    const [slowEvent, fastEvent] = ['slow.lower.id', 'fast.higher.id'].map((type) =>
      streamed().then((all) => all.find((e) => e.type === type)!),
    );
    expect(Number((await slowEvent).id)).toBeLessThan(Number((await fastEvent).id));
    await eventually(async () => expect(await waiting()).toBe(0));
  });

  it('sends a replayed event under its first outbox id, so consumers can drop it', async () => {
    await relay!.stop();
    await record('crash.replay');
    const [{ id }] = await sql<{ id: string }[]>`select id from outbox order by id desc limit 1`;
    // As if the relay had XADDed and died before deleting the row.
    await reader.xadd(
      eventStream(service),
      '*',
      'type',
      'crash.replay',
      'outbox_id',
      String(id),
      'payload',
      '{}',
      'occurred_at',
      new Date().toISOString(),
    );
    startRelay();
    await eventually(async () => expect(await waiting()).toBe(0));
    const replays = (await streamed()).filter((e) => e.type === 'crash.replay');
    expect(replays.map((e) => e.id)).toEqual([String(id), String(id)]);
    expect(new Set(replays.map((e) => e.streamId)).size).toBe(2);
  });
});
