import type { Sql } from '@hub/common';
import type { DeliveryRow } from '../db/deliveries';
import type { DeliveryQueue } from './queue';

/**
 * Queues every pending delivery again, oldest first, a page at a time. Redis may have lost the
 * queue (a system restored from a backup starts with an empty one: the deliveries live in
 * Postgres); each delivery goes under its deterministic job id, so only missing jobs are added.
 */
export async function requeuePendingDeliveries(sql: Sql, queue: DeliveryQueue, pageSize = 1000): Promise<number> {
  let queued = 0;
  for (let after = 0; ;) {
    const page = (
      await sql<DeliveryRow[]>`
        select * from deliveries where state = 'pending' and id > ${after} order by id limit ${pageSize}`
    ).map((row) => ({ ...row, id: Number(row.id) }));
    if (page.length === 0) return queued;
    await queue.enqueue(page);
    queued += page.length;
    after = page[page.length - 1].id;
  }
}
