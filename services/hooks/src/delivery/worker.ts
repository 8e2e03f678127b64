import { hostname } from 'node:os';
import { continueTrace, createOutboxNotifier, hooksEvents, type Logger, type Sql } from '@hub/common';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { findDeliveryWithHook, recordAttempt } from '../db/deliveries';
import { recordHookFailure, recordHookSuccess } from '../db/hooks';
import { DELIVERY_QUEUE, type DeliveryJobData } from './queue';
import type { Sender } from './sender';
import { deliveryHeaders, loggedHeaders } from './signing';

/** A failed attempt worth repeating, with the receiver's Retry-After when it gave one. */
class RetryableDeliveryError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/**
 * The shortest time between two wake-ups of the relay for attempts' events: at most this much later
 * on the stream under load, while a lone attempt's event goes at once.
 */
const ATTEMPT_EVENTS_GAP_MS = 20;

/** Longest wait a receiver's Retry-After can ask for. */
const MAX_RETRY_AFTER_MS = 3600_000;

/** Exponential backoff with full jitter on the upper half, or the receiver's Retry-After. */
export const retryDelay = (baseMs: number) => (attemptsMade: number, _type?: string, error?: Error) => {
  const asked = error instanceof RetryableDeliveryError ? error.retryAfterMs : null;
  if (asked !== null) return Math.min(asked, MAX_RETRY_AFTER_MS);
  const ceiling = baseMs * 2 ** Math.max(0, attemptsMade - 1);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
};

export interface DelivererOptions {
  sql: Sql;
  sender: Sender;
  logger: Logger;
  pauseAfterFailures: number;
  pauseBaseMs: number;
  /** The worker's name in the attempts it logs (hostname-pid). */
  name: string;
}

export interface DeliveryWorkerOptions extends Omit<DelivererOptions, 'name'> {
  redisUrl: string;
  concurrency: number;
  retryBaseMs: number;
}

/** What one attempt reads of its job: the delivery, and how many attempts came before. */
export type DeliveryJob = Pick<Job<DeliveryJobData>, 'data' | 'attemptsMade' | 'opts' | 'moveToDelayed'>;

/**
 * One attempt at a queued delivery: sends it, logs the attempt with the state it leaves the
 * delivery in, and throws what tells BullMQ to retry (RetryableDeliveryError) or to stop
 * (UnrecoverableError). Apart from the worker so it can be run without a queue.
 */
export function createDeliverer(options: DelivererOptions) {
  const { sql, sender, logger, name } = options;
  const relay = createOutboxNotifier({ sql, service: hooksEvents.service, gapMs: ATTEMPT_EVENTS_GAP_MS, logger });

  return async function deliver(job: DeliveryJob, token?: string): Promise<string> {
    const found = await findDeliveryWithHook(sql, job.data.deliveryId);
    // The hook or its project was deleted meanwhile: nothing to send.
    if (!found) return 'gone';
    const { delivery, hook } = found;
    if (delivery.state !== 'pending') return delivery.state;
    // A paused hook's deliveries wait for the pause to end without using up their attempts.
    if (hook.pausedUntil && hook.pausedUntil.getTime() > Date.now()) {
      await job.moveToDelayed(hook.pausedUntil.getTime(), token);
      throw new DelayedError();
    }
    const body = delivery.payload;
    const startedAt = new Date();
    const headers = deliveryHeaders(hook, delivery, body, startedAt);
    const result = await sender.send(hook.url, headers, body);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const state = result.ok ? 'delivered' : !result.retryable || lastAttempt ? 'failed' : 'pending';
    await recordAttempt(
      sql,
      found,
      {
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error: result.error,
        requestHeaders: loggedHeaders(headers),
        responseHeaders: result.responseHeaders,
        responseBody: result.responseBody,
        worker: name,
      },
      state,
    );
    relay.notify();
    if (result.ok) {
      if (hook.consecutiveFailures > 0 || hook.pausedUntil) await recordHookSuccess(sql, hook.id);
      return 'delivered';
    }
    const pausedUntil = await recordHookFailure(sql, hook.id, options.pauseAfterFailures, options.pauseBaseMs);
    if (pausedUntil) logger.warn({ hookId: hook.id, pausedUntil }, 'hook keeps failing; paused');
    if (state === 'failed') throw new UnrecoverableError(result.error ?? 'delivery failed');
    throw new RetryableDeliveryError(result.error ?? 'delivery failed', result.retryAfterMs);
  };
}

/**
 * Sends deliveries from the queue. Any number of workers share it; a worker that dies mid-job
 * leaves the job to be taken over once its lock lapses. Postgres says what was delivered, so a
 * job that runs again after its delivery succeeded sends nothing.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions) {
  const { logger } = options;
  const name = `${hostname()}-${process.pid}`;
  const deliver = createDeliverer({ ...options, name });

  const connection = new Redis(options.redisUrl, {
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Each attempt is a span of the trace that made the delivery; the POST inside it carries traceparent.
  const tracedDeliver = (job: Job<DeliveryJobData>, token?: string) =>
    continueTrace(
      job.data.traceparent,
      `hook delivery ${job.name}`,
      {
        'messaging.destination.name': DELIVERY_QUEUE,
        'messaging.message.id': job.id ?? '',
        'hub.delivery_id': job.data.deliveryId,
        'hub.attempt': job.attemptsMade + 1,
      },
      () => deliver(job, token),
    );
  const worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, tracedDeliver, {
    connection,
    concurrency: options.concurrency,
    settings: { backoffStrategy: retryDelay(options.retryBaseMs) },
    // A live worker renews its locks every 5 s; a killed one's jobs go back to the queue within
    // about 15 s. A Redis restart can make jobs look stalled several times: that must not fail them.
    lockDuration: 10_000,
    stalledInterval: 5_000,
    maxStalledCount: 10,
  });
  // One line per outage, not one per failed command.
  let lastOutageLog = 0;
  worker.on('error', (error) => {
    if (Date.now() - lastOutageLog < 10_000) return;
    lastOutageLog = Date.now();
    logger.warn({ err: error }, 'hook worker cannot reach Redis; retrying');
  });
  worker.on('failed', (job, error) => {
    if (job && !(error instanceof DelayedError))
      logger.info(
        { deliveryId: job.data.deliveryId, attempt: job.attemptsMade, reason: error.message },
        'hook delivery attempt failed',
      );
  });

  return {
    name,
    ready: () => connection.ping(),
    /** Lets the running deliveries finish, then stops. */
    stop: async () => {
      await worker.close();
      connection.disconnect();
    },
  };
}
