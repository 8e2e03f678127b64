import type { Principal, Sql } from '@hub/common';
import DataLoader from 'dataloader';
import { findNamespacesByIds, findUserNamespaces, type NamespaceRow } from './db/namespaces';
import { findUsersByIds, type UserRow } from './db/users';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface IdentityContext {
  principal: Principal;
  loaders: IdentityLoaders;
}

export type IdentityLoaders = ReturnType<typeof createLoaders>;

const byKey = <K, V>(keys: readonly K[], rows: V[], key: (row: V) => K) => {
  const map = new Map(rows.map((row) => [key(row), row]));
  return keys.map((k) => map.get(k) ?? null);
};

/** One query per entity kind per request, however many references the gateway asks for. */
export function createLoaders(sql: Sql) {
  return {
    userById: new DataLoader<number, UserRow | null>(async (ids) =>
      byKey(ids, await findUsersByIds(sql, ids), (u) => u.id),
    ),
    namespaceById: new DataLoader<number, NamespaceRow | null>(async (ids) =>
      byKey(ids, await findNamespacesByIds(sql, ids), (n) => n.id),
    ),
    namespaceByOwner: new DataLoader<number, NamespaceRow | null>(async (ids) =>
      byKey(ids, await findUserNamespaces(sql, ids), (n) => n.ownerId!),
    ),
  };
}
