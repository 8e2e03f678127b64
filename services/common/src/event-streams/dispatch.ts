import { isDatabaseUnavailable } from '../db';
import { DomainError, ErrorCode } from '../errors';
import type { Logger } from '../logger';
import { parseStreamEntry, type StreamedEvent } from '../outbox';
import type { Redis } from '../redis';
import { touchVersions, versionKeysOf } from '../resource-versions';
import { continueTrace } from '../trace-context';

/** A handler that fails this often on one event gets the event logged and skipped. */
const MAX_ATTEMPTS = 5;

/** Failures that say something the handler needs is down for now (see the retry below). */
const isUnavailable = (error: unknown) =>
  isDatabaseUnavailable(error) ||
  (error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE) ||
  (error as { name?: string })?.name === 'MaxRetriesPerRequestError';

/** One stream entry as a consumer reads it; a claimed entry trimmed from the stream meanwhile has no fields. */
export interface Entry {
  stream: string;
  id: string;
  fields: string[] | null;
}

/**
 * Hands one entry at a time to `handle`, within the trace its event carries, and settles it:
 * acknowledged (with the versions of what it touched) once handled; left pending for a retry when
 * the handler failed; logged and acknowledged unhandled, so it stops holding up the stream, after
 * MAX_ATTEMPTS failures. `handle` answers false for an entry left pending.
 */
export function createDispatcher(options: {
  redis: Redis;
  group: string;
  logger: Logger;
  /** The service whose events a stream carries. */
  serviceOf: (stream: string) => string;
  handle: (event: StreamedEvent) => Promise<void>;
  /** The events `handle` acts on (all when unset); the others are acknowledged without it. */
  wants?: (event: StreamedEvent) => boolean;
}) {
  const { redis, group, logger } = options;
  const attempts = new Map<string, number>();

  /** Whether the handler's failure ends the event's retries. */
  function givesUp(error: unknown, stream: string, id: string, event: StreamedEvent): boolean {
    // The database or a service being down is no fault of the event: it is retried until they
    // are back, without counting towards skipping it (a Postgres restart outlasted five
    // one-second retries, and the event was lost).
    const tries = (attempts.get(id) ?? 0) + (isUnavailable(error) ? 0 : 1);
    attempts.set(id, tries);
    if (tries < MAX_ATTEMPTS) {
      logger.warn({ err: error, stream, id, type: event.type, tries }, 'event handler failed; will retry');
      return false;
    }
    logger.error(
      { err: error, stream, id, type: event.type, payload: event.payload },
      'event handler keeps failing; skipping the event',
    );
    return true;
  }

  /** Acknowledges the entry; what the handler derived from it (a feed entry, an access fact) is visible from now on. */
  async function acknowledge(stream: string, id: string, event: StreamedEvent | null): Promise<void> {
    attempts.delete(id);
    // The versions of what it touched advance with the acknowledgement (resource-versions.ts).
    const batch = redis.multi();
    if (event) touchVersions(batch, versionKeysOf(event));
    const results = (await batch.xack(stream, group, id).exec()) ?? [];
    for (const [error] of results) if (error) throw error;
  }

  return async function handleEntry({ stream, id, fields }: Entry): Promise<boolean> {
    const event = fields && parseStreamEntry(options.serviceOf(stream), id, fields);
    if (event && options.wants && !options.wants(event)) {
      // Nothing is made of it here, so no version advances with its acknowledgement.
      await redis.xack(stream, group, id);
      return true;
    }
    if (event) {
      try {
        await continueTrace(
          event.traceparent,
          `${event.service} ${event.type} event`,
          { 'messaging.destination.name': stream, 'messaging.consumer.group.name': group },
          () => options.handle(event),
        );
      } catch (error) {
        if (!givesUp(error, stream, id, event)) return false;
      }
    }
    await acknowledge(stream, id, event);
    return true;
  };
}

export type HandleEntry = ReturnType<typeof createDispatcher>;
