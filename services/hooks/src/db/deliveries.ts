import {
  currentTraceparent,
  EVENT_VERSION,
  keysetPageById,
  type hooksEvents,
  type EventFields,
  type KeysetWindow,
  type PageWindow,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import type { HookRow, SystemHookRow } from './hooks';

export interface DeliveryRow {
  id: number;
  hookId: number;
  eventKey: string;
  eventName: string;
  webhookId: string;
  /** The JSON body, as sent. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  createdAt: Date;
  deliveredAt: Date | null;
}

export interface AttemptRow {
  id: number;
  deliveryId: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  worker: string;
}

export type NewDelivery = Pick<DeliveryRow, 'hookId' | 'eventKey' | 'eventName' | 'webhookId' | 'payload'>;

type Db = Sql | TransactionSql;

// bigserial ids arrive as strings from postgres.js; they stay far below 2^53.
const asDelivery = (row: DeliveryRow): DeliveryRow => ({ ...row, id: Number(row.id) });

/**
 * Inserts the deliveries an event makes; one that exists already (the event arrived again) is
 * left as it is. Returns every delivery of the event still waiting to be sent.
 */
export async function insertDeliveries(sql: Db, deliveries: NewDelivery[]): Promise<DeliveryRow[]> {
  if (deliveries.length === 0) return [];
  await sql`insert into deliveries ${sql(deliveries)} on conflict (hook_id, event_key) do nothing`;
  const rows = await sql<DeliveryRow[]>`
    select * from deliveries
    where event_key = ${deliveries[0].eventKey} and hook_id in ${sql(deliveries.map((d) => d.hookId))} and state = 'pending'`;
  return rows.map(asDelivery);
}

type HookTargetField =
  'id' | 'kind' | 'projectId' | 'url' | 'token' | 'signingSecret' | 'pausedUntil' | 'consecutiveFailures';
/** What sending a delivery needs of its hook, and what its attempts' events say of it. */
export type HookTarget = Pick<HookRow, HookTargetField> | Pick<SystemHookRow, HookTargetField>;

/** A delivery with the hook it goes to, in one query: for the worker, and node(id:)'s read rule. */
export async function findDeliveryWithHook(
  sql: Db,
  id: number,
): Promise<{ delivery: DeliveryRow; hook: HookTarget } | undefined> {
  const [row] = await sql<
    Array<
      DeliveryRow & {
        hookKind: HookTarget['kind'];
        hookProjectId: number | null;
        hookUrl: string;
        hookToken: string | null;
        hookSigningSecret: string;
        hookPausedUntil: Date | null;
        hookConsecutiveFailures: number;
      }
    >
  >`
    select d.*, h.kind as hook_kind, h.project_id as hook_project_id, h.url as hook_url, h.token as hook_token,
      h.signing_secret as hook_signing_secret, h.paused_until as hook_paused_until,
      h.consecutive_failures as hook_consecutive_failures
    from deliveries d join hooks h on h.id = d.hook_id where d.id = ${id}`;
  if (!row) return undefined;
  const {
    hookKind,
    hookProjectId,
    hookUrl,
    hookToken,
    hookSigningSecret,
    hookPausedUntil,
    hookConsecutiveFailures,
    ...delivery
  } = row;
  return {
    delivery: asDelivery(delivery),
    hook: {
      id: delivery.hookId,
      kind: hookKind,
      projectId: hookProjectId,
      url: hookUrl,
      token: hookToken,
      signingSecret: hookSigningSecret,
      pausedUntil: hookPausedUntil,
      consecutiveFailures: hookConsecutiveFailures,
      // hooks_kind_project pairs them: a project hook has a project, a system hook none.
    } as HookTarget,
  };
}

export async function findDelivery(sql: Db, hookId: number, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await sql<DeliveryRow[]>`select * from deliveries where id = ${id} and hook_id = ${hookId}`;
  return row && asDelivery(row);
}

/** A hook's delivery log by v3's page numbers: newest (largest id) first. */
export async function listDeliveries(
  sql: Db,
  hookId: number,
  window: PageWindow,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    sql<
      DeliveryRow[]
    >`select * from deliveries where hook_id = ${hookId} order by id desc limit ${window.perPage} offset ${window.offset}`,
    countDeliveries(sql, hookId),
  ]);
  return { rows: rows.map(asDelivery), total };
}

export async function countDeliveries(sql: Db, hookId: number): Promise<number> {
  const [{ count }] = await sql<
    { count: number }[]
  >`select count(*)::int as count from deliveries where hook_id = ${hookId}`;
  return count;
}

/** A keyset page of a hook's delivery log, in listDeliveries' order. */
export async function listDeliveriesKeyset(
  sql: Db,
  hookId: number,
  window: KeysetWindow,
): Promise<{ rows: Array<DeliveryRow & { sortKey: string[] }>; beyond: boolean }> {
  const { rows, beyond } = await keysetPageById<DeliveryRow>(
    sql,
    'deliveries',
    sql`where hook_id = ${hookId}`,
    'desc',
    window,
  );
  return { rows: rows.map((row) => ({ ...asDelivery(row), sortKey: row.sortKey })), beyond };
}

export async function attemptsOf(sql: Db, deliveryIds: readonly number[]): Promise<Map<number, AttemptRow[]>> {
  const rows = await sql<
    AttemptRow[]
  >`select * from delivery_attempts where delivery_id in ${sql(deliveryIds as number[])} order by id`;
  const byDelivery = new Map<number, AttemptRow[]>();
  for (const row of rows) {
    const key = Number(row.deliveryId);
    byDelivery.set(key, [...(byDelivery.get(key) ?? []), row]);
  }
  return byDelivery;
}

/**
 * Logs one attempt at a delivery, sets the delivery's state after it (`pending` leaves it to be
 * tried again) and records `hook_delivery.attempted`, all in one statement (one transaction): the
 * event exists exactly when the log says the attempt happened. Returns the attempt's place in the
 * delivery's log, from 1 (a re-send goes on counting). The caller wakes the relays
 * (createOutboxNotifier): a notify per attempt made relaying cost more than the attempt itself.
 *
 * One statement rather than a transaction: the worker sends up to HOOK_WORKER_CONCURRENCY
 * deliveries at once over DB_POOL_MAX connections, and a transaction holds its connection through
 * each of its round trips. As begin, insert, count, update, outbox insert, notify and commit, the
 * attempts cost five times the CPU of the log row and the state alone, and the webhooks bench fell
 * from 414 to 234 deliveries/s.
 */
export async function recordAttempt(
  sql: Sql,
  target: { delivery: DeliveryRow; hook: HookTarget },
  attempt: Omit<AttemptRow, 'id' | 'deliveryId'>,
  state: DeliveryRow['state'],
): Promise<number> {
  const { delivery, hook } = target;
  const fields: Omit<EventFields<typeof hooksEvents, 'hook_delivery.attempted'>, 'attempt'> = {
    hook_id: hook.id,
    system_hook: hook.kind === 'system',
    project_id: hook.projectId,
    delivery_id: delivery.id,
    state,
    status_code: attempt.statusCode,
    event_name: delivery.eventName,
  };
  const logged = sql`insert into delivery_attempts ${sql({
    ...attempt,
    deliveryId: delivery.id,
    requestHeaders: sql.json(attempt.requestHeaders),
    responseHeaders: attempt.responseHeaders ? sql.json(attempt.responseHeaders) : null,
  } as never)}`;
  const settled =
    state === 'pending'
      ? sql``
      : sql`, settled as (
          update deliveries set state = ${state}, delivered_at = ${state === 'delivered' ? new Date() : null}
          where id = ${delivery.id})`;
  // The statement's own insert is not visible to its count (one snapshot): the place is one more.
  const [{ place }] = await sql<{ place: number }[]>`
    with logged as (${logged}) ${settled},
    placed as (select count(*)::int + 1 as place from delivery_attempts where delivery_id = ${delivery.id}),
    announced as (
      insert into outbox (event_type, payload, traceparent)
      select 'hook_delivery.attempted', ${sql.json({ v: EVENT_VERSION, ...fields })}::jsonb || jsonb_build_object('attempt', place),
        ${currentTraceparent()}
      from placed)
    select place from placed`;
  return place;
}

/**
 * Deliveries still pending `olderThanMs` after they were made: normally waiting out retries or a
 * pause (their jobs exist), or left without a job when queueing failed. Re-adding them under
 * their deterministic job ids queues only the latter.
 */
export async function stalePendingDeliveries(sql: Db, olderThanMs: number, limit = 1000): Promise<DeliveryRow[]> {
  const rows = await sql<DeliveryRow[]>`
    select * from deliveries where state = 'pending' and created_at < now() - ${olderThanMs} * interval '1 millisecond'
    order by id limit ${limit}`;
  return rows.map(asDelivery);
}

export async function setDeliveryState(sql: Db, id: number, state: DeliveryRow['state']): Promise<void> {
  await sql`update deliveries set state = ${state}, delivered_at = ${state === 'delivered' ? new Date() : null} where id = ${id}`;
}

/** Drops deliveries older than `maxAgeDays`, and beyond the newest `maxPerHook` of each hook. */
export async function trimDeliveries(sql: Db, maxAgeDays: number, maxPerHook: number): Promise<number> {
  const old =
    await sql`delete from deliveries where created_at < now() - ${maxAgeDays} * interval '1 day' and state <> 'pending'`;
  const excess = await sql`
    delete from deliveries d using (
      select id from (
        select id, row_number() over (partition by hook_id order by id desc) as rank from deliveries
      ) ranked where rank > ${maxPerHook}
    ) extra
    where d.id = extra.id and d.state <> 'pending'`;
  return old.count + excess.count;
}
