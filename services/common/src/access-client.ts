import DataLoader from 'dataloader';
import type { ProjectAccess } from './access';
import { accessLookup, createEventReader, membershipEvents, projectsEvents, type EventOf } from './contracts';
import type { ChangeHandler } from './event-streams';
import type { InternalClient } from './internal-http';
import type { Logger } from './logger';
import type { Principal } from './principal';

const MAX_CACHED = 50_000;

/**
 * Asks membership what a user may do on projects: one call per request for all the projects the
 * request touches (DataLoader), and answers kept `ttlMs` across requests. Services drop entries
 * early through `invalidateProject` when membership's events say a project's access changed.
 */
export function createAccessClient(options: { membership: InternalClient; ttlMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  // projectId → (user key → entry), so one event drops every user's entry for the project.
  const cache = new Map<number, Map<string, { value: ProjectAccess | null; expires: number }>>();
  let size = 0;
  const loaders = new WeakMap<Principal, DataLoader<number, ProjectAccess | null>>();
  const userKey = (principal: Principal) => String(principal.userId ?? 'anonymous');

  function remember(projectId: number, user: string, value: ProjectAccess | null) {
    if (options.ttlMs <= 0) return;
    if (size >= MAX_CACHED) {
      cache.clear();
      size = 0;
    }
    let entries = cache.get(projectId);
    if (!entries) cache.set(projectId, (entries = new Map()));
    if (!entries.has(user)) size++;
    entries.set(user, { value, expires: now() + options.ttlMs });
  }

  function cached(projectId: number, user: string) {
    const entry = cache.get(projectId)?.get(user);
    if (!entry) return undefined;
    if (entry.expires <= now()) {
      cache.get(projectId)!.delete(user);
      size--;
      return undefined;
    }
    return entry;
  }

  return {
    /**
     * The loader of one request's principal. Each request verifies its own principal object, so
     * keying by it gives one loader per request, shared by the context and the services it calls:
     * everything a request asks goes out in one batch.
     */
    loader(principal: Principal): DataLoader<number, ProjectAccess | null> {
      const existing = loaders.get(principal);
      if (existing) return existing;
      const user = userKey(principal);
      const loader = new DataLoader<number, ProjectAccess | null>(
        async (ids) => {
          const results = new Map<number, ProjectAccess | null>();
          const missing: number[] = [];
          for (const id of new Set(ids)) {
            const hit = cached(id, user);
            if (hit) results.set(id, hit.value);
            else missing.push(id);
          }
          if (missing.length) {
            const { access } = await options.membership.call(accessLookup, {
              userId: principal.userId,
              projectIds: missing,
            });
            missing.forEach((id, i) => {
              results.set(id, access[i] ?? null);
              remember(id, user, access[i] ?? null);
            });
          }
          return ids.map((id) => results.get(id) ?? null);
          // No memo of its own: answers live in the TTL cache above, which membership's events
          // clear; a loader that outlived its request must never hold a revoked answer.
        },
        { cache: false },
      );
      loaders.set(principal, loader);
      return loader;
    },

    invalidateProject(projectId: number) {
      const entries = cache.get(projectId);
      if (!entries) return;
      size -= entries.size;
      cache.delete(projectId);
    },

    /** A group membership changed: the user's answers on every project may have. */
    invalidateUser(userId: number) {
      const user = String(userId);
      for (const entries of cache.values()) if (entries.delete(user)) size--;
    },
  };
}

export type AccessClient = ReturnType<typeof createAccessClient>;

/**
 * Drops cached answers for a project whenever membership (team changes) or projects (visibility,
 * features, deletion) publish an event about it, on every replica; projects' feed entries aside.
 */
export function accessChangeHandler(access: AccessClient, logger: Logger): ChangeHandler {
  const read = createEventReader<EventOf<typeof membershipEvents> | EventOf<typeof projectsEvents>>(
    [membershipEvents, projectsEvents],
    logger,
  );
  return {
    services: ['membership', 'projects'],
    onEvent: (event) => {
      const known = read(event);
      // A feed entry changes nobody's access: dropping the project's answers on each would make
      // every replica ask membership again after every push, comment and merge.
      if (!known || known.key === 'projects:project_event.created') return;
      if ('project_id' in known.payload) access.invalidateProject(known.payload.project_id);
      else access.invalidateUser(known.payload.user_id);
    },
  };
}
