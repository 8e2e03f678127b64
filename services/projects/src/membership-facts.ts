import { applyProjectFacts, type InternalClient, type Logger, type ProjectFacts } from '@hub/common';

/**
 * Tells membership a project's access facts directly, so the next request sees the change.
 * When membership cannot be reached the push is repeated in the background until it lands or
 * `retryForMs` runs out; the project's event in the outbox stays the backstop. Without the
 * repeats, a project created while membership restarted stayed unknown to it (404 on every
 * access check) until its consumer got to the event, seconds later.
 */
export function createFactsPush(deps: {
  membership: InternalClient;
  logger: Logger;
  /** Called once membership holds the facts: cached access answers for the project are stale. */
  applied: (projectId: number) => void;
  retryEveryMs?: number;
  retryForMs?: number;
}) {
  const retryEveryMs = deps.retryEveryMs ?? 250;
  const retryForMs = deps.retryForMs ?? 30_000;
  /** The newest facts of each project membership has not taken yet; versions make older ones moot. */
  const unsent = new Map<number, { facts: ProjectFacts; giveUpAt: number }>();
  let timer: NodeJS.Timeout | null = null;

  async function send(facts: ProjectFacts): Promise<boolean> {
    try {
      await deps.membership.call(applyProjectFacts, facts);
      return true;
    } catch (error) {
      deps.logger.debug({ err: error, projectId: facts.projectId }, 'membership not reached');
      return false;
    }
  }

  function schedule() {
    if (timer || unsent.size === 0) return;
    timer = setTimeout(retry, retryEveryMs);
    timer.unref();
  }

  async function retry() {
    for (const [projectId, entry] of unsent) {
      if (await send(entry.facts)) {
        // A newer change may have been queued while this one was on its way.
        if (unsent.get(projectId) === entry) unsent.delete(projectId);
        deps.applied(projectId);
      } else if (Date.now() >= entry.giveUpAt) {
        unsent.delete(projectId);
        deps.logger.warn({ projectId }, 'membership still not reached; the project event will tell it');
      } else {
        break; // still away: the rest wait for the next round
      }
    }
    timer = null;
    schedule();
  }

  return {
    async push(facts: ProjectFacts): Promise<void> {
      if (await send(facts)) {
        const queued = unsent.get(facts.projectId);
        if (queued && queued.facts.version <= facts.version) unsent.delete(facts.projectId);
      } else {
        deps.logger.warn(
          { projectId: facts.projectId },
          'membership not told directly; telling it again in the background',
        );
        const queued = unsent.get(facts.projectId);
        if (!queued || queued.facts.version < facts.version)
          unsent.set(facts.projectId, { facts, giveUpAt: Date.now() + retryForMs });
        schedule();
      }
      deps.applied(facts.projectId);
    },
  };
}

export type FactsPush = ReturnType<typeof createFactsPush>;
