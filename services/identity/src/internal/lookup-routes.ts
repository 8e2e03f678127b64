import {
  createInternalRouter,
  internalHandler,
  NAMESPACES_LOOKUP_PATH,
  USERS_LOOKUP_PATH,
  type Logger,
  type NamespacesLookupResponse,
  type Sql,
  type UsersLookupResponse,
} from '@hub/common';
import type { Router } from 'express';
import { findNamespacesByIds, findUserNamespaces } from '../db/namespaces';
import { lookupUsers } from '../db/users';

const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v) && v > 0 && v < 2 ** 31).slice(0, 1000) : [];

/** Lookups other services make outside the graph (membership checks users, projects namespaces). */
export function createLookupRouter(deps: { sql: Sql; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  router.post(
    USERS_LOOKUP_PATH,
    internalHandler(deps.logger, async (body): Promise<UsersLookupResponse> => {
      const query = typeof body.query === 'string' && body.query !== '' ? body.query : undefined;
      const rows = await lookupUsers(deps.sql, ids(body.ids), query);
      return { users: rows.map(({ id, username, name, state }) => ({ id, username, name, state })) };
    }),
  );
  router.post(
    NAMESPACES_LOOKUP_PATH,
    internalHandler(deps.logger, async (body): Promise<NamespacesLookupResponse> => {
      const [byId, byOwner] = await Promise.all([
        ids(body.ids).length ? findNamespacesByIds(deps.sql, ids(body.ids)) : [],
        ids(body.ownerIds).length ? findUserNamespaces(deps.sql, ids(body.ownerIds)) : [],
      ]);
      const seen = new Map([...byId, ...byOwner].map((n) => [n.id, { id: n.id, path: n.path, name: n.name, ownerId: n.ownerId }]));
      return { namespaces: [...seen.values()] };
    }),
  );
  return router;
}
