import type { AccessClient, Principal, ProjectAccess, Sql } from '@hub/common';
import DataLoader from 'dataloader';
import { attemptsOf, type AttemptRow } from './db/deliveries';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface HooksContext {
  principal: Principal;
  loaders: ReturnType<typeof createLoaders>;
}

/** A project as the gateway hands it over (its `databaseId` key, kept here as `id`). */
export interface ProjectRef {
  id: number;
}

/** Access answers, and the attempts of every delivery a request shows: one query for all. */
export function createLoaders(sql: Sql, access: AccessClient, principal: Principal) {
  return {
    access: access.loader(principal) as DataLoader<number, ProjectAccess | null>,
    attempts: new DataLoader<number, AttemptRow[]>(async (ids) => {
      const byDelivery = await attemptsOf(sql, ids);
      return ids.map((id) => byDelivery.get(id) ?? []);
    }),
  };
}
