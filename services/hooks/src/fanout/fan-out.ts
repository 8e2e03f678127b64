import { randomUUID } from 'node:crypto';
import type { Logger, Sql, StreamedEvent } from '@hub/common';
import { insertDeliveries } from '../db/deliveries';
import { deleteProjectHooks, hooksFor } from '../db/hooks';
import type { DeliveryQueue } from '../delivery/queue';
import type { Directory } from './directory';
import { HOOK_KINDS, readHookEvent, UnreadableEvent, type HookEvent } from './hook-events';
import { buildPayload, projectsNamedBy } from './payloads';

/** The streams hooks read. */
export const CONSUMED_SERVICES = ['projects', 'git_worker', 'mergerequests', 'notes'];

/**
 * Turns each domain event into one delivery per hook that asks for its kind, recorded in Postgres
 * (one per event and hook, however often the event arrives) and queued under a deterministic job
 * id. A deleted project takes its hooks and their deliveries with it.
 */
export function createFanOut(deps: { sql: Sql; directory: Directory; queue: DeliveryQueue; logger: Logger }) {
  const { sql } = deps;
  const unreadable = new Set<string>();

  function read(event: StreamedEvent): HookEvent | null {
    try {
      return readHookEvent(event);
    } catch (error) {
      if (!(error instanceof UnreadableEvent)) throw error;
      // Logged once per type: a producer that changed its payload must not flood the log or stop the group.
      const type = `${event.service}:${event.type}`;
      if (!unreadable.has(type)) deps.logger.error({ type, id: event.id, reason: error.message }, 'cannot read this event; skipping events like it');
      unreadable.add(type);
      return null;
    }
  }

  return async (event: StreamedEvent): Promise<void> => {
    if (event.service === 'projects' && event.type === 'project.deleted') {
      const projectId = Number(event.payload.project_id);
      if (Number.isInteger(projectId)) await deleteProjectHooks(sql, projectId);
      return;
    }
    const hookEvent = read(event);
    if (!hookEvent) return;
    const { flag, eventName } = HOOK_KINDS[hookEvent.kind];
    const hooks = await hooksFor(sql, hookEvent.projectId, flag);
    if (hooks.length === 0) return;
    const [projects, users] = await Promise.all([
      deps.directory.projects(projectsNamedBy(hookEvent)),
      hookEvent.actorId === null ? new Map() : deps.directory.users([hookEvent.actorId]),
    ]);
    const built = buildPayload(hookEvent, { projects, actor: hookEvent.actorId === null ? null : (users.get(hookEvent.actorId) ?? null) });
    if (!built) return;
    const payload = JSON.stringify(built);
    const eventKey = `${event.service}:${event.id}`;
    const pending = await insertDeliveries(
      sql,
      hooks.map((hook) => ({ hookId: hook.id, projectId: hookEvent.projectId, eventKey, eventName, webhookId: `msg_${randomUUID()}`, payload })),
    );
    await deps.queue.enqueue(pending);
  };
}
