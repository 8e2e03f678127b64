import { resolve } from 'node:path';
import { createLogger, type Sql } from '@hub/common';
import { createTestSchema } from '@hub/common/testing';
import { UnrecoverableError } from 'bullmq';
import type { Sender, SendResult } from './sender';
import { newSigningSecret } from './signing';
import { createDeliverer, type DeliveryJob } from './worker';

// Each attempt the worker makes is logged and announced in one transaction: one
// `hook_delivery.attempted` outbox row per attempt, with the state the delivery is left in.

const MAX_ATTEMPTS = 3;

const answer = (statusCode: number | null, overrides: Partial<SendResult> = {}): SendResult => ({
  ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
  retryable: statusCode === null || statusCode >= 500 || statusCode === 429,
  statusCode,
  error: statusCode === null ? 'ECONNREFUSED' : statusCode >= 300 ? `HTTP ${statusCode}` : null,
  responseHeaders: statusCode === null ? null : {},
  responseBody: statusCode === null ? null : '',
  durationMs: 3,
  retryAfterMs: null,
  ...overrides,
});

describe('hook delivery attempts as events', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let projectHook: number;
  let systemHook: number;
  /** What the stand-in receiver answers the next attempt. */
  let next: SendResult;
  let deliver: ReturnType<typeof createDeliverer>;
  let made = 0;

  beforeAll(async () => {
    db = await createTestSchema('hooks', resolve(__dirname, '..', '..', 'migrations'));
    [{ id: projectHook }] = await db.sql<{ id: number }[]>`
      insert into hooks (project_id, url, signing_secret) values (10, 'https://example.com/p', ${newSigningSecret()}) returning id`;
    [{ id: systemHook }] = await db.sql<{ id: number }[]>`
      insert into hooks (kind, url, signing_secret) values ('system', 'https://example.com/s', ${newSigningSecret()}) returning id`;
    const sender = { send: async () => next, close: async () => {} } as unknown as Sender;
    deliver = createDeliverer({
      sql: db.sql,
      sender,
      logger: createLogger('hooks-test', 'silent'),
      // Never paused here: a pause would hold back the attempts these tests make.
      pauseAfterFailures: 1000,
      pauseBaseMs: 60_000,
      name: 'test-worker',
    });
  });
  afterAll(async () => {
    await db?.drop();
  });

  async function newDelivery(hookId: number, eventName: string): Promise<number> {
    made++;
    const [{ id }] = await db.sql<{ id: string }[]>`
      insert into deliveries (hook_id, event_key, event_name, webhook_id, payload)
      values (${hookId}, ${`test:${made}`}, ${eventName}, ${`msg_${made}`}, '{}') returning id`;
    return Number(id);
  }

  /** The job of the delivery's `attemptsMade + 1`th attempt, as BullMQ hands it over. */
  const job = (deliveryId: number, attemptsMade: number): DeliveryJob =>
    ({
      data: { deliveryId },
      attemptsMade,
      opts: { attempts: MAX_ATTEMPTS },
      moveToDelayed: async () => {
        throw new Error('no delivery here is paused');
      },
    }) as unknown as DeliveryJob;

  /** One attempt answered with `result`: what deliver returned or threw. */
  async function attempt(deliveryId: number, attemptsMade: number, result: SendResult) {
    next = result;
    return deliver(job(deliveryId, attemptsMade)).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  }

  const events = async (deliveryId: number) =>
    (
      await db.sql<{ eventType: string; payload: Record<string, unknown> }[]>`
        select event_type, payload from outbox where (payload->>'delivery_id')::bigint = ${deliveryId} order by id`
    ).map((row): Record<string, unknown> => ({ type: row.eventType, ...row.payload }));
  const stateOf = async (deliveryId: number) =>
    (await db.sql<{ state: string }[]>`select state from deliveries where id = ${deliveryId}`)[0]!.state;
  const attemptsLogged = async (deliveryId: number) =>
    (
      await db.sql<{ n: number }[]>`select count(*)::int as n from delivery_attempts where delivery_id = ${deliveryId}`
    )[0]!.n;

  it('records one event for a delivered attempt, with the project, the status and the event name', async () => {
    const delivery = await newDelivery(projectHook, 'Push Hook');
    expect(await attempt(delivery, 0, answer(200))).toEqual({ value: 'delivered' });
    expect(await events(delivery)).toEqual([
      {
        type: 'hook_delivery.attempted',
        v: 1,
        hook_id: projectHook,
        system_hook: false,
        project_id: 10,
        delivery_id: delivery,
        attempt: 1,
        state: 'delivered',
        status_code: 200,
        event_name: 'Push Hook',
      },
    ]);
    expect(await stateOf(delivery)).toBe('delivered');
  });

  it('records each attempt of a failing delivery: pending while it will be retried, failed after the last', async () => {
    const delivery = await newDelivery(projectHook, 'Issue Hook');
    for (let before = 0; before < MAX_ATTEMPTS; before++) {
      const outcome = await attempt(delivery, before, answer(503));
      const last = before === MAX_ATTEMPTS - 1;
      // The worker tells BullMQ to stop only after the last attempt.
      expect('error' in outcome && outcome.error instanceof UnrecoverableError).toBe(last);
      const recorded = await events(delivery);
      expect(recorded).toHaveLength(before + 1);
      expect(recorded[before]).toMatchObject({
        attempt: before + 1,
        state: last ? 'failed' : 'pending',
        status_code: 503,
        project_id: 10,
        system_hook: false,
        event_name: 'Issue Hook',
      });
      expect(await stateOf(delivery)).toBe(last ? 'failed' : 'pending');
      expect(await attemptsLogged(delivery)).toBe(before + 1);
    }
  });

  it("records a system hook's final failure without a project or a status, and counts on after a re-send", async () => {
    const delivery = await newDelivery(systemHook, 'System Hook');
    // No answer, and not worth retrying (a blocked address): the first attempt is the last.
    const outcome = await attempt(delivery, 0, answer(null, { retryable: false, error: 'blocked address' }));
    expect('error' in outcome && outcome.error instanceof UnrecoverableError).toBe(true);
    expect(await events(delivery)).toEqual([
      {
        type: 'hook_delivery.attempted',
        v: 1,
        hook_id: systemHook,
        system_hook: true,
        project_id: null,
        delivery_id: delivery,
        attempt: 1,
        state: 'failed',
        status_code: null,
        event_name: 'System Hook',
      },
    ]);
    // A re-send is a new job (its attemptsMade starts at 0), but the log goes on: attempt 2.
    await db.sql`update deliveries set state = 'pending' where id = ${delivery}`;
    expect(await attempt(delivery, 0, answer(204))).toEqual({ value: 'delivered' });
    expect((await events(delivery)).map((event) => [event.attempt, event.state])).toEqual([
      [1, 'failed'],
      [2, 'delivered'],
    ]);
  });

  it('records nothing for a delivery that is no longer pending or no longer there', async () => {
    const delivery = await newDelivery(projectHook, 'Push Hook');
    await db.sql`update deliveries set state = 'delivered' where id = ${delivery}`;
    expect(await attempt(delivery, 0, answer(200))).toEqual({ value: 'delivered' });
    expect(await attempt(delivery + 1000, 0, answer(200))).toEqual({ value: 'gone' });
    expect(await events(delivery)).toEqual([]);
    expect(await events(delivery + 1000)).toEqual([]);
  });
});
