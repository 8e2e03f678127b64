import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * A request id follows one client request through every process it reaches: the facade takes the
 * client's `X-Request-Id` when it is safe to echo and log, or makes one, answers with it, and every
 * hop passes it on (HTTP header, gRPC metadata), so one id finds the request's log lines and spans
 * everywhere. It is kept in async context rather than passed through every signature.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a client may choose as its request id: short, and nothing a log or header could misread. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

const requestIds = new AsyncLocalStorage<string>();

/** The client's id when it is safe to take, a new one otherwise. */
export function acceptRequestId(presented: string | string[] | undefined): string {
  return typeof presented === 'string' && SAFE_REQUEST_ID.test(presented) ? presented : randomUUID();
}

/** Runs `work` as part of the request `id`: the logger, the spans and the outgoing hops see it. */
export const withRequestId = <T>(id: string, work: () => T): T => requestIds.run(id, work);

/** The id of the request the caller runs for, if any. */
export const currentRequestId = (): string | undefined => requestIds.getStore();

/** The header that passes the current request's id on to another process; none outside a request. */
export function requestIdHeaders(): Record<string, string> {
  const id = requestIds.getStore();
  return id === undefined ? {} : { [REQUEST_ID_HEADER]: id };
}
