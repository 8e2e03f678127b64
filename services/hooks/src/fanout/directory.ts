import { projectsLookup, usersLookup, type InternalClient, type ProjectSummary, type UserSummary } from '@hub/common';

/**
 * Projects and users as hook payloads name them, asked of their owners (projects, identity) in
 * one call per kind, and kept `ttlMs`: a burst of events for one project asks once.
 */
export function createDirectory(deps: {
  projects: InternalClient;
  identity: InternalClient;
  ttlMs: number;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const cached = <T>() => new Map<number, { value: T | null; expires: number }>();

  async function lookup<T>(
    cache: Map<number, { value: T | null; expires: number }>,
    ids: number[],
    fetch: (ids: number[]) => Promise<Array<T & { id: number }>>,
  ) {
    const result = new Map<number, T>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = cache.get(id);
      if (hit && hit.expires > now()) {
        if (hit.value) result.set(id, hit.value);
      } else missing.push(id);
    }
    if (missing.length) {
      const found = new Map((await fetch(missing)).map((item) => [item.id, item]));
      if (cache.size > 10_000) cache.clear();
      for (const id of missing) {
        const value = found.get(id) ?? null;
        cache.set(id, { value, expires: now() + deps.ttlMs });
        if (value) result.set(id, value);
      }
    }
    return result;
  }

  const projectCache = cached<ProjectSummary>();
  const userCache = cached<UserSummary>();
  return {
    projects: (ids: number[]) =>
      lookup(projectCache, ids, async (missing) => {
        return (await deps.projects.call(projectsLookup, { ids: missing })).projects;
      }),
    users: (ids: number[]) =>
      lookup(userCache, ids, async (missing) => {
        return (await deps.identity.call(usersLookup, { ids: missing })).users;
      }),
  };
}

export type Directory = ReturnType<typeof createDirectory>;
