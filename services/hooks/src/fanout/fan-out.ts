import { buryProject, createKnownEventReader, type Logger, type Sql, type StreamedEvent } from '@hub/common';
import { deleteProjectHooks, hooksFor } from '../db/hooks';
import type { DeliveryQueue } from '../delivery/queue';
import { deliverToHooks } from './deliver';
import type { Directory } from './directory';
import { HOOK_KINDS, readHookEvent } from './hook-events';
import { buildPayload, projectsNamedBy } from './payloads';
import { createSystemFanOut } from './system-fan-out';

/** The streams hooks read: project hooks' events, and identity's and membership's for system hooks. */
export const CONSUMED_SERVICES = ['projects', 'git_worker', 'mergerequests', 'notes', 'identity', 'membership'];

/**
 * Turns each domain event into one delivery per system hook when it is a system event, and one per
 * project hook that asks for its kind, recorded in Postgres (one per event and hook, however often
 * the event arrives) and queued under a deterministic job id. A deleted project takes its hooks
 * and their deliveries with it.
 */
export function createFanOut(deps: { sql: Sql; directory: Directory; queue: DeliveryQueue; logger: Logger }) {
  const { sql } = deps;
  // Checked against the producers' contracts; an event that does not match is logged once and skipped.
  const read = createKnownEventReader(deps.logger);
  const system = createSystemFanOut(deps);

  return async (event: StreamedEvent): Promise<void> => {
    const known = read(event);
    if (!known) return;
    await system(known);
    if (known.key === 'projects:project.deleted') {
      const projectId = known.payload.project_id;
      await buryProject(sql, projectId, (tx) => deleteProjectHooks(tx, projectId));
      return;
    }
    const hookEvent = readHookEvent(known);
    if (!hookEvent) return;
    const { flag, eventName } = HOOK_KINDS[hookEvent.kind];
    const hooks = await hooksFor(sql, hookEvent.projectId, flag);
    if (hooks.length === 0) return;
    const [projects, users] = await Promise.all([
      deps.directory.projects(projectsNamedBy(hookEvent)),
      hookEvent.actorId === null ? new Map() : deps.directory.users([hookEvent.actorId]),
    ]);
    const built = buildPayload(hookEvent, {
      projects,
      actor: hookEvent.actorId === null ? null : (users.get(hookEvent.actorId) ?? null),
    });
    if (!built) return;
    await deliverToHooks(deps, hooks, { eventKey: `${event.service}:${event.id}`, eventName, payload: built });
  };
}
