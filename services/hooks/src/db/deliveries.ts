import { hooksEvents, type KeysetWindow, type PageWindow, type Sql, type TransactionSql } from '@hub/common';
import type { HookRow, SystemHookRow } from './hooks';
import { keysetPageById } from './id-keyset';

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
 * tried again) and records `hook_delivery.attempted`, all in one transaction: the event exists
 * exactly when the log says the attempt happened. Returns the attempt's place in the delivery's
 * log, from 1 (a re-send goes on counting).
 */
export async function recordAttempt(
  sql: Sql,
  target: { delivery: DeliveryRow; hook: HookTarget },
  attempt: Omit<AttemptRow, 'id' | 'deliveryId'>,
  state: DeliveryRow['state'],
): Promise<number> {
  const { delivery, hook } = target;
  return sql.begin(async (tx) => {
    const [{ id }] = await tx<{ id: string }[]>`insert into delivery_attempts ${tx({
      ...attempt,
      deliveryId: delivery.id,
      requestHeaders: tx.json(attempt.requestHeaders),
      responseHeaders: attempt.responseHeaders ? tx.json(attempt.responseHeaders) : null,
    } as never)} returning id`;
    const [{ place }] = await tx<{ place: number }[]>`
      select count(*)::int as place from delivery_attempts where delivery_id = ${delivery.id} and id <= ${id}`;
    if (state !== 'pending') await setDeliveryState(tx, delivery.id, state);
    await hooksEvents.record(tx, 'hook_delivery.attempted', {
      hook_id: hook.id,
      system_hook: hook.kind === 'system',
      project_id: hook.projectId,
      delivery_id: delivery.id,
      attempt: place,
      state,
      status_code: attempt.statusCode,
      event_name: delivery.eventName,
    });
    return place;
  });
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
