// The contract of services/hooks: the events it emits. Owned by hooks.
import { z } from 'zod';
import { defineEvents, payload } from './define';
import { id } from './shared';

/** What a delivery is after an attempt: pending when it will be tried again. */
export const deliveryStates = ['pending', 'delivered', 'failed'] as const;

export const hooksEvents = defineEvents('hooks', {
  /**
   * One attempt at sending a delivery to a project or system hook, recorded with the attempt's row
   * of the delivery log. Those who may see the hook may see it (node(id:) on HookDelivery).
   */
  'hook_delivery.attempted': payload({
    hook_id: id,
    system_hook: z.boolean(),
    /** The hook's project; null for a system hook, which belongs to none. */
    project_id: id.nullable(),
    // Deliveries are a bigserial: their ids may pass 2^31, so not `id`'s 32 bits.
    delivery_id: z.number().int().positive(),
    /** The attempt's place in the delivery's log, from 1; a re-send goes on counting. */
    attempt: z.number().int().positive(),
    state: z.enum(deliveryStates),
    /** The receiver's HTTP status; null when no answer came (refused, timed out, blocked). */
    status_code: z.number().int().nullable(),
    /** The X-Gitlab-Event header sent: Push Hook, …, System Hook. */
    event_name: z.string(),
  }),
});
