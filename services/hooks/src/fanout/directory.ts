import {
  PROJECTS_LOOKUP_PATH,
  USERS_LOOKUP_PATH,
  type InternalClient,
  type ProjectSummary,
  type ProjectsLookupRequest,
  type ProjectsLookupResponse,
  type UserSummary,
  type UsersLookupRequest,
  type UsersLookupResponse,
} from '@hub/common';

/**
 * Projects and users as hook payloads name them, asked of their owners (projects, identity) in
 * one call per kind, and kept `ttlMs`: a burst of events for one project asks once.
 */
export function createDirectory(deps: { projects: InternalClient; identity: InternalClient; ttlMs: number; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const cached = <T>() => new Map<number, { value: T | null; expires: number }>();

  async function lookup<T>(cache: Map<number, { value: T | null; expires: number }>, ids: number[], fetch: (ids: number[]) => Promise<Array<T & { id: number }>>) {
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
        const request: ProjectsLookupRequest = { ids: missing };
        return (await deps.projects.post<ProjectsLookupResponse>(PROJECTS_LOOKUP_PATH, request)).projects;
      }),
    users: (ids: number[]) =>
      lookup(userCache, ids, async (missing) => {
        const request: UsersLookupRequest = { ids: missing };
        return (await deps.identity.post<UsersLookupResponse>(USERS_LOOKUP_PATH, request)).users;
      }),
  };
}

export type Directory = ReturnType<typeof createDirectory>;
