import {
  createInternalRouter,
  idList,
  internalHandler,
  NAMESPACES_LOOKUP_PATH,
  USERS_LOOKUP_PATH,
  type Logger,
  type NamespaceSummary,
  type NamespacesLookupResponse,
  type UserProfile,
  type Sql,
  type UsersLookupResponse,
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
    description: n.description,
    ownerId: n.ownerId,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
    owner: owner ? profile(owner) : null,
  });

  const router = createInternalRouter(deps.secret);
  router.post(
    USERS_LOOKUP_PATH,
    internalHandler(deps.logger, async (body): Promise<UsersLookupResponse> => {
      const query = typeof body.query === 'string' && body.query !== '' ? body.query : undefined;
      const rows = await lookupUsers(deps.sql, idList(body.ids), query);
      return { users: rows.map(({ id, username, name, state, email }) => ({ id, username, name, state, email, avatarUrl: gravatarUrl(email) })) };
    }),
  );
  router.post(
    NAMESPACES_LOOKUP_PATH,
    internalHandler(deps.logger, async (body): Promise<NamespacesLookupResponse> => {
      const [byId, byOwner] = await Promise.all([
        idList(body.ids).length ? findNamespacesByIds(deps.sql, idList(body.ids)) : [],
        idList(body.ownerIds).length ? findUserNamespaces(deps.sql, idList(body.ownerIds)) : [],
      ]);
      const found = [...new Map([...byId, ...byOwner].map((n) => [n.id, n])).values()];
      const ownerIds = [...new Set(found.map((n) => n.ownerId).filter((id): id is number => id !== null))];
      const owners = new Map((ownerIds.length ? await findUsersByIds(deps.sql, ownerIds) : []).map((u) => [u.id, u]));
      return { namespaces: found.map((n) => summary(n, n.ownerId === null ? undefined : owners.get(n.ownerId))) };
    }),
  );
  return router;
}
