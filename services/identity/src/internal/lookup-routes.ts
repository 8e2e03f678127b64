import {
  createInternalRouter,
  namespacesLookup,
  serveEndpoint,
  usersLookup,
  type Logger,
  type NamespaceSummary,
  type Sql,
  type UserProfile,
} from '@hub/common';
import type { Router } from 'express';
import { findNamespacesByIds, findUserNamespaces, type NamespaceRow } from '../db/namespaces';
import { findUsersByIds, lookupUsers, type UserRow } from '../db/users';
import { gravatarUrl } from '../domain/tokens';

/** Lookups other services make outside the graph (membership checks users, projects namespaces). */
export function createLookupRouter(deps: { sql: Sql; secret: string; logger: Logger; externalUrl: string }): Router {
  const profile = (user: UserRow): UserProfile => ({
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    avatarUrl: gravatarUrl(user.email),
    webUrl: `${deps.externalUrl}/u/${user.username}`,
    createdAt: user.createdAt.toISOString(),
  });
  const summary = (n: NamespaceRow, owner: UserRow | undefined): NamespaceSummary => ({
    id: n.id,
    path: n.path,
    name: n.name,
    kind: n.kind,
    description: n.description,
    ownerId: n.ownerId,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
    owner: owner ? profile(owner) : null,
  });

  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, usersLookup, deps.logger, async ({ ids, query }) => {
    const rows = await lookupUsers(deps.sql, ids, query || undefined);
    return {
      users: rows.map(({ id, username, name, state, email, isAdmin }) => ({
        id,
        username,
        name,
        state,
        email,
        avatarUrl: gravatarUrl(email),
        isAdmin,
      })),
    };
  });
  serveEndpoint(router, namespacesLookup, deps.logger, async ({ ids = [], ownerIds = [] }) => {
    const [byId, byOwner] = await Promise.all([
      ids.length ? findNamespacesByIds(deps.sql, ids) : [],
      ownerIds.length ? findUserNamespaces(deps.sql, ownerIds) : [],
    ]);
    const found = [...new Map([...byId, ...byOwner].map((n) => [n.id, n])).values()];
    const ownerIdsFound = [...new Set(found.map((n) => n.ownerId).filter((id): id is number => id !== null))];
    const owners = new Map(
      (ownerIdsFound.length ? await findUsersByIds(deps.sql, ownerIdsFound) : []).map((u) => [u.id, u]),
    );
    return { namespaces: found.map((n) => summary(n, n.ownerId === null ? undefined : owners.get(n.ownerId))) };
  });
  return router;
}
