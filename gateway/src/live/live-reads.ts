import { ErrorCode, type Logger } from '@hub/common';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { GatewayContext } from '../context';
import type { LiveEntry } from './live-streams';
import { GATE_ALIAS, idsVariable, MAX_IDS, type MessageReadPlan } from './message-reads';

export type ExecuteLive = (
  query: string,
  variables: Record<string, unknown>,
  context: GatewayContext,
) => Promise<{ data?: Record<string, unknown> | null; errors?: readonly GraphQLFormattedError[] }>;

/** What the graph answered for one message's objects, as the subscribers of one group may see them. */
export interface MessageRead {
  /** Whether the message's primary object is visible to them. */
  visible: boolean;
  /** By the subscriber's response key: the object, null (no id, or invisible), or the error standing for it. */
  objects: Record<string, unknown>;
  /** Whatever the subscribers of the group make of this read once (live-subscriptions.ts), shared by all. */
  shared?: unknown;
}

/** Refusals that mean "not for this subscriber": the object is then treated as invisible. */
export const INVISIBLE = new Set<unknown>([ErrorCode.NOT_FOUND, ErrorCode.FORBIDDEN, ErrorCode.UNAUTHENTICATED]);

export const errorOf = (formatted: GraphQLFormattedError) =>
  new GraphQLError(formatted.message, { extensions: formatted.extensions });

/** Told when a read it waits for has settled (a subscription: live-subscriptions.ts). */
export interface ReadWaiter {
  readSettled(): void;
}

/**
 * One (group, stream entry) read, awaitable, and readable without awaiting once settled. The
 * subscriptions of a group (200 of them on a project in the bench) wait for it as `ReadWaiter`s,
 * called in a loop when it settles, rather than each through a promise of its own: a promise and
 * a continuation per subscription and message were much of what a message cost.
 */
export class PendingRead implements PromiseLike<MessageRead> {
  settled = false;
  /** Set once settled: the read, or why there is none (`failed`). */
  value: MessageRead | undefined;
  failed = false;
  error: unknown;
  private waiters: ReadWaiter[] = [];
  private promise: Promise<MessageRead> | null = null;
  private settlePromise: { resolve(read: MessageRead): void; reject(error: unknown): void } | null = null;

  constructor(readonly ids: Record<string, string | null>) {}

  /** Calls `waiter.readSettled()` once this has settled (at once when it has). */
  wait(waiter: ReadWaiter) {
    if (this.settled) waiter.readSettled();
    else this.waiters.push(waiter);
  }

  resolve(read: MessageRead) {
    if (this.settled) return;
    this.value = read;
    this.settle();
    this.settlePromise?.resolve(read);
  }

  reject(error: unknown) {
    if (this.settled) return;
    this.failed = true;
    this.error = error;
    this.settle();
    this.settlePromise?.reject(error);
  }

  private settle() {
    this.settled = true;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.readSettled();
  }

  then<T = MessageRead, E = never>(
    onFulfilled?: ((read: MessageRead) => T | PromiseLike<T>) | null,
    onRejected?: ((error: unknown) => E | PromiseLike<E>) | null,
  ): Promise<T | E> {
    this.promise ??= this.settled
      ? this.failed
        ? Promise.reject(this.error)
        : Promise.resolve(this.value!)
      : new Promise<MessageRead>((resolve, reject) => (this.settlePromise = { resolve, reject }));
    return this.promise.then(onFulfilled, onRejected);
  }
}

type Request = PendingRead;

/** Subscribers who read alike: one principal, one plan. */
interface Group {
  key: string;
  plan: MessageReadPlan;
  context: GatewayContext;
  pending: Request[];
}

/**
 * Reads the objects of subscriptions' messages through the graph, batched: per group of
 * subscribers who read alike (the same principal and plan), one query asks for every message
 * waiting. A group's first message after a quiet spell is read at once; after that the group
 * queries at most once per `intervalMs` (and never while its last query runs), and what arrives
 * meanwhile waits for the next one. Each group needs its own query, as each principal sees the
 * graph its own way: at 100 events a second fanned out to ten users, reading every event as it came
 * made about a thousand queries a second. Each (group, stream entry) is read once, however many
 * subscriptions of the group want it.
 */
export function createMessageReader(execute: ExecuteLive, logger: Logger, intervalMs: number) {
  const groups = new Map<string, Group>();

  function settle(group: Group, batch: Request[], result: Awaited<ReturnType<ExecuteLive>>) {
    const { plan } = group;
    const errors = result.errors ?? [];
    // Where each id stands in its field's list, as the batch sent them.
    const positions = new Map<string, Map<string, number>>();
    for (const field of plan.idFields) positions.set(field, new Map());
    const listed = (field: string, id: string | null) => (id === null ? -1 : positions.get(field)!.get(id)!);
    for (const request of batch)
      for (const field of plan.idFields) {
        const id = request.ids[field] ?? null;
        const places = positions.get(field)!;
        if (id !== null && !places.has(id)) places.set(id, places.size);
      }
    const errorsAt = (alias: string, index: number) =>
      errors.filter(
        (error) => !error.path || (error.path[0] === alias && (error.path.length < 2 || error.path[1] === index)),
      );
    for (const request of batch) {
      const gate = listed(plan.idFields[0]!, request.ids[plan.idFields[0]!] ?? null);
      const gateErrors = gate < 0 ? [] : errorsAt(GATE_ALIAS, gate);
      const unexplained = gateErrors.find((error) => !INVISIBLE.has(error.extensions?.code));
      if (unexplained) {
        request.reject(errorOf(unexplained));
        continue;
      }
      const gateList = result.data?.[GATE_ALIAS] as unknown[] | null | undefined;
      const visible = gate >= 0 && gateErrors.length === 0 && gateList?.[gate] != null;
      const objects: Record<string, unknown> = {};
      for (const { responseKey, field, alias } of plan.selections) {
        const index = listed(field, request.ids[field] ?? null);
        if (index < 0) {
          objects[responseKey] = null;
          continue;
        }
        const failed = errorsAt(alias, index)[0];
        objects[responseKey] = failed
          ? errorOf(failed)
          : ((result.data?.[alias] as unknown[] | null | undefined)?.[index] ?? null);
      }
      request.resolve({ visible, objects });
    }
  }

  async function run(group: Group) {
    while (group.pending.length > 0) {
      const started = Date.now();
      // Each request names at most one id per field: MAX_IDS requests stay within nodes(ids:)'s limit.
      const batch = group.pending.splice(0, MAX_IDS);
      const lists: Record<string, string[]> = {};
      for (const field of group.plan.idFields) {
        const ids = new Set<string>();
        for (const request of batch) {
          const id = request.ids[field];
          if (id != null) ids.add(id);
        }
        lists[idsVariable(field)] = [...ids];
      }
      try {
        const result = await execute(group.plan.query, { ...group.plan.variables, ...lists }, group.context);
        settle(group, batch, result);
      } catch (error) {
        logger.error({ err: error }, 'cannot read the objects of subscriptions’ messages');
        for (const request of batch) request.reject(error);
      }
      // What comes before the interval is over waits for the group's next query.
      const rest = started + intervalMs - Date.now();
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
    groups.delete(group.key);
  }

  return {
    /**
     * The read of `entry`'s objects (`ids`, global ids by object field) for the subscribers in
     * group `key`, who share `plan` and the principal of `context`.
     */
    read(
      key: string,
      plan: MessageReadPlan,
      context: GatewayContext,
      entry: LiveEntry,
      ids: Record<string, string | null>,
    ): PendingRead {
      const known = entry.reads.get(key) as PendingRead | undefined;
      if (known) return known;
      const read = new PendingRead(ids);
      let group = groups.get(key);
      if (!group) {
        group = { key, plan, context, pending: [] };
        groups.set(key, group);
        // After the tail's hand-out of the entries it read: they go in one query.
        const starting = group;
        setImmediate(() => void run(starting));
      }
      // The freshest credentials of the group's subscribers sign its next query.
      group.context = context;
      group.pending.push(read);
      entry.reads.set(key, read);
      return read;
    },
  };
}

export type MessageReader = ReturnType<typeof createMessageReader>;
