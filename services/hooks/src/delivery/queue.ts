import { currentTraceparent } from '@hub/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { DeliveryRow } from '../db/deliveries';

export const DELIVERY_QUEUE = 'hook-deliveries';

export interface DeliveryJobData {
  deliveryId: number;
  /** The trace of the event or request the delivery comes from: the worker's attempts join it. */
  traceparent?: string;
}

const jobData = (deliveryId: number): DeliveryJobData => {
  const traceparent = currentTraceparent();
  return traceparent ? { deliveryId, traceparent } : { deliveryId };
};

/** Deterministic: the event and the hook. A relayed-twice event adds no second job. */
export const jobIdOf = (delivery: Pick<DeliveryRow, 'eventKey' | 'hookId'>) =>
  `${delivery.eventKey.replace(/:/g, '-')}-h${delivery.hookId}`;

/** A producer's Redis connection: commands wait for a reconnect briefly, then fail (never hang). */
const producerConnection = (url: string) =>
  new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: (attempt) => Math.min(attempt * 200, 2000) });

/** Where deliveries wait for a hook worker; jobs carry only the delivery's id (Postgres has the rest). */
export function createDeliveryQueue(options: { redisUrl: string; maxAttempts: number }) {
  const connection = producerConnection(options.redisUrl);
  const queue = new Queue<DeliveryJobData>(DELIVERY_QUEUE, {
    connection,
    defaultJobOptions: {
      attempts: options.maxAttempts,
      // The worker's backoffStrategy: exponential with jitter, or the receiver's Retry-After.
      backoff: { type: 'hook' },
      // Kept a while so a job id seen again is still recognised; Postgres keeps the log.
      removeOnComplete: { age: 3600, count: 50_000 },
      removeOnFail: { age: 24 * 3600, count: 50_000 },
    },
  });
  return {
    async enqueue(deliveries: DeliveryRow[]): Promise<void> {
      if (deliveries.length === 0) return;
      await queue.addBulk(
        deliveries.map((d) => ({ name: d.eventName, data: jobData(d.id), opts: { jobId: jobIdOf(d) } })),
      );
    },
    /** A new series of attempts for a logged delivery. */
    async resend(delivery: DeliveryRow): Promise<void> {
      await queue.add(delivery.eventName, jobData(delivery.id), { jobId: `${jobIdOf(delivery)}-resend-${Date.now()}` });
    },
    /** Jobs waiting, delayed or being sent, for the queue-depth metric. */
    depth: () => queue.getJobCountByTypes('waiting', 'delayed', 'prioritized', 'active'),
    close: async () => {
      await queue.close();
      connection.disconnect();
    },
  };
}

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
