import type { AccessClient, Principal, ProjectAccess, Sql } from '@hub/common';
import DataLoader from 'dataloader';
import { countForks, findProjectsByIds, type ProjectRow } from './db/projects';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface ProjectsContext {
  principal: Principal;
  loaders: ReturnType<typeof createLoaders>;
}

const byKey = <K, V>(keys: readonly K[], rows: V[], key: (row: V) => K) => {
  const map = new Map(rows.map((row) => [key(row), row]));
  return keys.map((k) => map.get(k) ?? null);
};

/** One query (or one membership call) per kind per request, however many projects a list holds. */
export function createLoaders(sql: Sql, access: AccessClient, principal: Principal) {
  return {
    projectById: new DataLoader<number, ProjectRow | null>(async (ids) => byKey(ids, await findProjectsByIds(sql, ids), (p) => p.id)),
    forksCount: new DataLoader<number, number>(async (ids) => {
      const counts = await countForks(sql, ids);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    access: access.loader(principal) as DataLoader<number, ProjectAccess | null>,
  };
}
