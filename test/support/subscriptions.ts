import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { stack } from './api';

/** The gateway's subscriptions endpoint: /graphql over WebSocket. */
export const subscriptionsUrl = (graphqlUrl = stack.graphqlUrl) => graphqlUrl.replace(/^http/, 'ws');

export interface Closed {
  code: number;
  reason: string;
}

/**
 * A graphql-ws client as an internal team's code makes one, signed in with `token`; it never
 * retries, so a close is seen as it happened. `closed` resolves with the socket's close.
 */
export function subscriber(token: string | null, url = subscriptionsUrl()) {
  let onClosed!: (closed: Closed) => void;
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const client: Client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: token === null ? {} : { privateToken: token },
    retryAttempts: 0,
    lazy: false,
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: unknown };
        onClosed({ code, reason: String(reason) });
      },
    },
  });
  client.on('error', () => {});
  return { client, closed, dispose: () => client.dispose() };
}

export interface Subscription<T> {
  /** Every message so far, in order. */
  messages: T[];
  /** Error results (a `next` with errors, or an `error` message), in order. */
  errors: unknown[];
  /** Whether the server completed it. */
  completed: () => boolean;
  /** Resolves with the nth message (0-based) once it has come; rejects after `timeoutMs`. */
  nth(index: number, timeoutMs?: number): Promise<T>;
  /** Resolves with the first message `matches` once it has come; rejects after `timeoutMs`. */
  find(matches: (message: T) => boolean, timeoutMs?: number): Promise<T>;
  /** Resolves once the server has completed it; rejects after `timeoutMs`. */
  completion(timeoutMs?: number): Promise<void>;
  /** Resolves once an error has come; rejects after `timeoutMs`. */
  firstError(timeoutMs?: number): Promise<any>;
  unsubscribe(): void;
}

/** Subscribes with `query`; `field` is the subscription's root field, whose value each message holds. */
export function subscribe<T = any>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  field: string,
): Subscription<T> {
  const messages: T[] = [];
  const errors: unknown[] = [];
  let completed = false;
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const unsubscribe = client.subscribe<Record<string, T>>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        else messages.push(result.data![field]!);
        wake();
      },
      error: (error) => {
        errors.push(...(Array.isArray(error) ? error : [error]));
        wake();
      },
      complete: () => {
        completed = true;
        wake();
      },
    },
  );
  const until = async (ready: () => boolean, what: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `${what} did not come within ${timeoutMs} ms (messages: ${JSON.stringify(messages)}, errors: ${JSON.stringify(errors)})`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    messages,
    errors,
    completed: () => completed,
    async nth(index, timeoutMs = 10_000) {
      await until(() => messages.length > index, `message ${index}`, timeoutMs);
      return messages[index]!;
    },
    async find(matches, timeoutMs = 10_000) {
      await until(() => messages.some(matches), 'a matching message', timeoutMs);
      return messages.find(matches)!;
    },
    async completion(timeoutMs = 10_000) {
      await until(() => completed, 'the completion', timeoutMs);
    },
    async firstError(timeoutMs = 10_000) {
      await until(() => errors.length > 0, 'an error', timeoutMs);
      return errors[0];
    },
    unsubscribe,
  };
}

/**
 * Waits until `subscription` is running on the server, which graphql-ws does not announce: does
 * `trigger` (something the subscription reports) until a message comes. The messages the triggers
 * made stay in `messages`; tests look for their own with `find`.
 */
export async function untilLive(
  subscription: Subscription<unknown>,
  trigger: () => Promise<unknown>,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (subscription.messages.length === 0) {
    if (subscription.errors.length > 0)
      throw new Error(`the subscription failed: ${JSON.stringify(subscription.errors)}`);
    if (Date.now() > deadline) throw new Error(`the subscription reported nothing within ${timeoutMs} ms`);
    await trigger();
    await subscription.nth(0, 1_000).catch(() => undefined);
  }
}

/** A socket speaking graphql-transport-ws by hand, for what a client library would never send. */
export async function rawSocket(url = subscriptionsUrl()) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const received: any[] = [];
  const closed = new Promise<Closed>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('message', (data) => received.push(JSON.parse(data.toString())));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    received,
    closed,
    send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    /** Resolves with the first received message of `type` (after any already received). */
    async next(type: string, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((message) => message.type === type);
        if (found) {
          received.splice(received.indexOf(found), 1);
          return found;
        }
        if (Date.now() > deadline)
          throw new Error(`no ${type} message within ${timeoutMs} ms: ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
