import { createSql, type Sql, type TransactionSql } from '@hub/common';
import { insertDeliveries, stalePendingDeliveries, trimDeliveries } from '../../services/hooks/src/db/deliveries';
import { api, createProject } from '../support/api';
import { stackInfo } from '../support/stack-info';

// The delivery log's upkeep, against the test stack's own hooks schema (real Postgres).
describe('the hook delivery log', () => {
  let sql: Sql;
  let hookId: number;

  beforeAll(async () => {
    sql = createSql({ url: stackInfo().databaseUrl, schema: 'hooks', max: 2 });
    const project = await createProject();
    // A receiver nobody listens on: the log rows below are written by hand, never sent.
    hookId = (
      await api('POST', `/projects/${project.id}/hooks`, {
        body: { url: 'http://127.0.0.1:9/never', push_events: false },
      })
    ).body.id;
  });

  afterAll(() => sql.end());

  /**
   * Runs `check` in a transaction that is rolled back: the stack's own hooks service sweeps stale
   * pending deliveries and re-queues them (their sending then fails), so rows it could see would
   * change under the test. Uncommitted, they are this test's alone.
   */
  const isolated = async (check: (tx: TransactionSql) => Promise<void>) => {
    const rollback = new Error('rolled back on purpose');
    await expect(
      sql.begin(async (tx) => {
        await check(tx);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  };
  const add = async (tx: TransactionSql, key: string, state: 'pending' | 'delivered' | 'failed', ageDays: number) => {
    const [row] = await insertDeliveries(tx, [
      { hookId, eventKey: key, eventName: 'Push Hook', webhookId: `msg_${key}`, payload: '{}' },
    ]);
    await tx`update deliveries set state = ${state}, created_at = now() - ${ageDays} * interval '1 day' where id = ${row.id}`;
    return row.id;
  };
  const remaining = async (tx: TransactionSql) =>
    (await tx<{ eventKey: string }[]>`select event_key from deliveries where hook_id = ${hookId} order by id`).map(
      (r) => r.eventKey,
    );

  it('records one delivery per event and hook, however often the event comes', async () => {
    const first = await insertDeliveries(sql, [
      { hookId, eventKey: 'test:dup', eventName: 'Push Hook', webhookId: 'msg_a', payload: '{"a":1}' },
    ]);
    const again = await insertDeliveries(sql, [
      { hookId, eventKey: 'test:dup', eventName: 'Push Hook', webhookId: 'msg_b', payload: '{"a":2}' },
    ]);
    expect(again).toEqual(first);
    expect(again[0]).toMatchObject({ webhookId: 'msg_a', payload: '{"a":1}', state: 'pending' });
    // A delivery reaches its project through its hook: the row keeps no project of its own (0003).
    expect(Object.keys(again[0]).sort()).toEqual([
      'createdAt',
      'deliveredAt',
      'eventKey',
      'eventName',
      'hookId',
      'id',
      'payload',
      'state',
      'webhookId',
    ]);
    await sql`delete from deliveries where hook_id = ${hookId}`;
  });

  it('trims by age and by count per hook, never a delivery still pending', () =>
    isolated(async (tx) => {
      await add(tx, 'test:old-delivered', 'delivered', 30);
      await add(tx, 'test:old-pending', 'pending', 30);
      for (let i = 1; i <= 4; i++) await add(tx, `test:recent-${i}`, i === 1 ? 'failed' : 'delivered', 0);
      await trimDeliveries(tx, 7, 2);
      expect(await remaining(tx)).toEqual(['test:old-pending', 'test:recent-3', 'test:recent-4']);
    }));

  it('finds deliveries left pending, for re-queueing', () =>
    isolated(async (tx) => {
      await add(tx, 'test:old-pending', 'pending', 30);
      await add(tx, 'test:new-pending', 'pending', 0);
      await add(tx, 'test:old-delivered', 'delivered', 30);
      // The shared stack may hold more stale deliveries than one sweep takes (1,000, oldest id
      // first): these rows, the newest, would be left for a later sweep.
      const stale = await stalePendingDeliveries(tx, 60_000, 1_000_000);
      expect(stale.filter((d) => d.hookId === hookId).map((d) => d.eventKey)).toEqual(['test:old-pending']);
    }));
});
