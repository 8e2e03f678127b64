import { createLogger, toGlobalId, type KnownEvent } from '@hub/common';
import { parse, type ExecutionResult } from 'graphql';
import { readApiSchemaSdl } from '../api-schema';
import type { GatewayContext } from '../context';
import { createMessageReader, type ExecuteLive } from './live-reads';
import type { LiveEntry, LiveStreams } from './live-streams';
import { buildLiveSchema, readByResponseKey, subscribeSharingResults, type LiveConnection } from './live-subscriptions';

const logger = createLogger('live-subscriptions-test', 'silent');
const ISSUES = `subscription ($projectId: Int) { issueUpdated(projectId: $projectId) { cursor action issue { title } } }`;

/** The streams as subscriptions see them, fed by hand; the graph answers every issue as visible. */
function liveWorld() {
  const listeners = new Set<(entry: LiveEntry, live: boolean) => void>();
  const streams = {
    follow: async (_service: string, _after: string | null, deliver: (entry: LiveEntry, live: boolean) => void) => {
      listeners.add(deliver);
      return { stop: () => listeners.delete(deliver) };
    },
  } as unknown as LiveStreams;
  const reads: Array<Record<string, unknown>> = [];
  const execute: ExecuteLive = async (query, variables) => {
    if (query.startsWith('query LiveScope')) return { data: { hubGate: { __typename: 'Project' } } };
    reads.push(variables);
    const issues = (variables.hubLive_issue as string[]).map((id) => ({
      __typename: 'Issue',
      title: `title of ${id}`,
    }));
    return { data: { hubGate: issues, hub0: issues } };
  };
  const schema = buildLiveSchema(readApiSchemaSdl('public'), {
    streams,
    execute,
    lookups: new Map(),
    reader: createMessageReader(execute, logger, 0),
    queueLimit: 8,
    logger,
  });
  /** A connection whose socket takes frames: what it was written, and the `sent` callbacks not called yet. */
  const framing = (userId: number, id: string) => {
    const written: string[] = [];
    const payloads: string[] = [];
    const unsent: Array<() => void> = [];
    const closed: Array<{ code: number; reason: string }> = [];
    const value: LiveConnection = {
      ...connection(userId),
      close: (code, reason) => closed.push({ code, reason }),
      frames: {
        write(payload, sent) {
          written.push(
            `{"id":${JSON.stringify(id)},"type":"next","payload":${Buffer.from(payload, 'latin1').toString()}}`,
          );
          payloads.push(payload);
          unsent.push(sent);
          return true;
        },
        format: (errors) => errors.map((error) => error.toJSON()),
        bytes: (text) => Buffer.from(text).toString('latin1'),
      },
    };
    return { connection: value, written, payloads, unsent, closed };
  };
  const connection = (userId: number, query = ISSUES): LiveConnection => ({
    context: async () => ({ principal: { userId, isAdmin: false }, signedPrincipal: `u${userId}` }) as GatewayContext,
    close: () => {},
    release: () => {},
    resultKey: query,
  });
  const subscribe = async (contextValue: LiveConnection, query = ISSUES) =>
    (await subscribeSharingResults({
      schema,
      document: parse(query),
      variableValues: { projectId: 3 },
      contextValue,
      fieldResolver: readByResponseKey,
    })) as AsyncIterableIterator<ExecutionResult>;
  let seq = 0;
  /** An entry about `issueId`; `outboxId` as the relay numbered its row (its own by default). */
  const publish = (issueId: number, outboxId?: number) => {
    seq++;
    const entry: LiveEntry = {
      service: 'notes',
      streamId: `${seq}-0`,
      reads: new Map(),
      event: {
        key: 'notes:issue.updated',
        event: { id: String(outboxId ?? seq), occurredAt: '2026-11-27T00:00:00.000Z' },
        payload: { project_id: 3, issue_id: issueId, actor_id: null },
      } as unknown as KnownEvent,
    };
    for (const deliver of listeners) deliver(entry, true);
  };
  return { connection, framing, subscribe, publish, reads };
}

describe('subscribeSharingResults', () => {
  it('executes a message once for the subscriptions of one principal and document, and apart for others', async () => {
    const world = liveWorld();
    const [a, b, other, otherDocument] = await Promise.all([
      world.subscribe(world.connection(1)),
      world.subscribe(world.connection(1)),
      world.subscribe(world.connection(2)),
      world.subscribe(
        world.connection(1, ISSUES.replace('cursor action', 'action')),
        ISSUES.replace('cursor action', 'action'),
      ),
    ]);
    world.publish(41);
    const [first, second, third, fourth] = await Promise.all([a.next(), b.next(), other.next(), otherDocument.next()]);
    expect(first.value).toEqual({
      data: {
        issueUpdated: {
          cursor: expect.any(String),
          action: 'UPDATED',
          issue: { title: `title of ${toGlobalId('Issue', 41)}` },
        },
      },
    });
    expect(second.value).toBe(first.value);
    expect(third.value).toEqual(first.value);
    expect(third.value).not.toBe(first.value);
    expect(fourth.value).toEqual({
      data: { issueUpdated: { action: 'UPDATED', issue: first.value.data.issueUpdated.issue } },
    });
    // One read per principal: users 1 and 2; the two documents of user 1 read alike.
    expect(world.reads).toHaveLength(2);
    for (const iterator of [a, b, other, otherDocument]) await iterator.return!();
  });

  it('reads what waits in one query: the messages of a burst come from one read', async () => {
    const world = liveWorld();
    const subscription = await world.subscribe(world.connection(1));
    for (const issue of [1, 2, 3, 2]) world.publish(issue);
    const titles = [];
    for (let i = 0; i < 4; i++) titles.push((await subscription.next()).value.data.issueUpdated.issue.title);
    expect(titles).toEqual([1, 2, 3, 2].map((n) => `title of ${toGlobalId('Issue', n)}`));
    expect(world.reads).toEqual([{ hubLive_issue: [1, 2, 3].map((n) => toGlobalId('Issue', n)) }]);
    await subscription.return!();
  });

  it("drops a relay's repeat of an outbox row among the last 128 sent, and only those", async () => {
    const world = liveWorld();
    const framed = world.framing(1, 'r');
    const subscription = await world.subscribe(framed.connection);
    const ended = subscription.next();
    /** One entry, read, written and sent before the next (the queue limit is 8). */
    const deliver = async (issueId: number, outboxId: number) => {
      world.publish(issueId, outboxId);
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const sent of framed.unsent.splice(0)) sent();
    };
    await deliver(41, 1_000_001);
    // The relay crashed after writing to the stream and wrote the row again: a later entry, the same id.
    await deliver(41, 1_000_001);
    expect(framed.written).toHaveLength(1);
    for (let n = 1; n <= 127; n++) await deliver(n, 2_000_000 + n);
    await deliver(1, 2_000_001);
    expect(framed.written).toHaveLength(128);
    // A 129th id pushes the first out of the window: an entry with it is sent again.
    await deliver(42, 3_000_000);
    await deliver(41, 1_000_001);
    expect(framed.written).toHaveLength(130);
    expect(framed.closed).toEqual([]);
    await subscription.return!();
    await ended;
  });

  it('writes the frames of a connection that takes them, serialized once for subscriptions alike', async () => {
    const world = liveWorld();
    const [a, b] = [world.framing(1, 'a'), world.framing(1, 'b"quoted')];
    const [first, second] = await Promise.all([world.subscribe(a.connection), world.subscribe(b.connection)]);
    // graphql-ws asks for the first message once it has registered the subscription.
    const ends = [first.next(), second.next()];
    world.publish(7);
    world.publish(8);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const frames = [...a.written, ...b.written].map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(frames.map((frame) => [frame.id, frame.type])).toEqual([
      ['a', 'next'],
      ['a', 'next'],
      ['b"quoted', 'next'],
      ['b"quoted', 'next'],
    ]);
    expect(frames[0]!.payload).toEqual({
      data: {
        issueUpdated: {
          cursor: expect.any(String),
          action: 'UPDATED',
          issue: { title: `title of ${toGlobalId('Issue', 7)}` },
        },
      },
    });
    expect(frames[2]!.payload).toEqual(frames[0]!.payload);
    // One payload for both, serialized once.
    expect(b.payloads).toEqual(a.payloads);
    expect(world.reads).toHaveLength(1);
    await first.return!();
    await expect(ends[0]).resolves.toEqual({ value: undefined, done: true });
    await second.return!();
  });

  it('closes a socket as a slow consumer once its frames wait unsent past the limit', async () => {
    const world = liveWorld();
    const slow = world.framing(1, 'slow');
    const subscription = await world.subscribe(slow.connection);
    const ended = subscription.next();
    // The limit is 8: the ninth message finds eight frames unsent.
    for (let issue = 1; issue <= 8; issue++) world.publish(issue);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(slow.written).toHaveLength(8);
    world.publish(9);
    expect(slow.closed).toEqual([{ code: 4008, reason: 'Slow consumer: 8 messages were waiting to be read' }]);
    await expect(ended).resolves.toEqual({ value: undefined, done: true });

    const fast = world.framing(2, 'fast');
    const other = await world.subscribe(fast.connection);
    void other.next();
    for (let issue = 1; issue <= 12; issue++) {
      world.publish(issue);
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const sent of fast.unsent.splice(0)) sent();
    }
    expect(fast.written).toHaveLength(12);
    expect(fast.closed).toEqual([]);
    await other.return!();
  });

  it('sends a final message made before graphql-ws asked for any, then ends', async () => {
    // A catch-up that fails at once: its 503 is the subscription's last message.
    const streams = {
      follow: async (
        _service: string,
        _after: string | null,
        _deliver: unknown,
        flow: { failed: (error: unknown) => void },
      ) => {
        setImmediate(() => flow.failed(new Error('Redis away')));
        return { stop: () => {} };
      },
    } as unknown as LiveStreams;
    const execute: ExecuteLive = async () => ({ data: { hubGate: { __typename: 'Project' } } });
    const schema = buildLiveSchema(readApiSchemaSdl('public'), {
      streams,
      execute,
      lookups: new Map(),
      reader: createMessageReader(execute, logger, 0),
      queueLimit: 8,
      logger,
    });
    const written: string[] = [];
    const connection: LiveConnection = {
      context: async () => ({ principal: { userId: 1, isAdmin: false }, signedPrincipal: 'u1' }) as GatewayContext,
      close: () => {},
      release: () => {},
      resultKey: ISSUES,
      frames: {
        write: (payload) => written.push(Buffer.from(payload, 'latin1').toString()) > 0,
        format: (errors) => errors.map((error) => error.toJSON()),
        bytes: (text) => Buffer.from(text).toString('latin1'),
      },
    };
    const subscription = (await subscribeSharingResults({
      schema,
      document: parse(ISSUES),
      variableValues: { projectId: 3 },
      contextValue: connection,
      fieldResolver: readByResponseKey,
    })) as AsyncIterableIterator<ExecutionResult>;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toEqual([]);
    await expect(subscription.next()).resolves.toEqual({ value: undefined, done: true });
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({
      data: null,
      errors: [{ message: '503 Service Unavailable', extensions: { code: 'SERVICE_UNAVAILABLE' } }],
    });
  });
});
