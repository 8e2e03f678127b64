import { DomainError, ErrorCode, type Sql } from '@hub/common';
import { setDeliveryState, type DeliveryRow } from '../db/deliveries';
import type { DeliveryQueue } from './queue';

/** Sends a logged delivery again: same payload and webhook-id, a new series of attempts. */
export async function resendDelivery(
  deps: { sql: Sql; queue: DeliveryQueue },
  delivery: DeliveryRow,
): Promise<DeliveryRow> {
  await setDeliveryState(deps.sql, delivery.id, 'pending');
  try {
    await deps.queue.resend(delivery);
  } catch {
    // Not queued: the log keeps saying what really happened, and the caller may try again.
    await setDeliveryState(deps.sql, delivery.id, delivery.state);
    throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable');
  }
  return { ...delivery, state: 'pending', deliveredAt: null };
}
