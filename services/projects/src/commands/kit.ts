import {
  authorize,
  namespacesLookup,
  notFound,
  type AccessClient,
  type Ability,
  type InternalClient,
  type NamespaceSummary,
  type Principal,
  type ProjectAccess,
  type ProjectFacts,
  type RequestOf,
  type Sql,
} from '@hub/common';
import type { FactsPush } from '../membership-facts';
import * as projects from '../db/projects';
import type { ProjectRow } from '../db/projects';
import type { VisibilityRules } from '../domain/visibility-rules';

export interface ProjectsDeps {
  sql: Sql;
  identity: InternalClient;
  membership: InternalClient;
  access: AccessClient;
  visibility: VisibilityRules;
  /** The shard a new project's repository goes to. */
  placeRepository: () => Promise<string>;
  factsPush: FactsPush;
}

/** What membership needs to know to decide access to a project. */
export const factsOf = (row: ProjectRow, deleted = false): ProjectFacts => ({
  projectId: row.id,
  ownerId: row.ownerId,
  visibilityLevel: row.visibilityLevel,
  archived: row.archived,
  issuesEnabled: row.issuesEnabled,
  mergeRequestsEnabled: row.mergeRequestsEnabled,
  snippetsEnabled: row.snippetsEnabled,
  wikiEnabled: row.wikiEnabled,
  // A deletion outranks every change before it.
  version: deleted ? row.version + 1 : row.version,
  deleted,
  creatorId: row.creatorId,
  namespaceId: row.namespaceId,
});

/** A change that found its project deleted since it was read: as if it had been gone before (never a 500). */
export const stillThere = (row: ProjectRow | undefined): ProjectRow => {
  if (!row) throw notFound('Project');
  return row;
};

/** What every command of the projects service shares: its dependencies, lookups and event payloads. */
export function createCommandKit(deps: ProjectsDeps) {
  const { sql } = deps;

  async function lookupNamespaces(request: RequestOf<typeof namespacesLookup>): Promise<NamespaceSummary[]> {
    return (await deps.identity.call(namespacesLookup, request)).namespaces;
  }

  async function findProject(id: number): Promise<ProjectRow | undefined> {
    return (await projects.findProjectsByIds(sql, [id]))[0];
  }

  return {
    deps,
    sql,
    lookupNamespaces,
    personalNamespace: async (userId: number) => (await lookupNamespaces({ ownerIds: [userId] }))[0],
    findProject,

    async authorized(
      principal: Principal,
      id: number,
      ability: Ability,
    ): Promise<{ row: ProjectRow; access: ProjectAccess }> {
      const row = await findProject(id);
      const access = authorize(row ? await deps.access.loader(principal).load(id) : null, principal, ability);
      return { row: row!, access };
    },

    /**
     * Membership learns of every change twice: right here, so the next request sees it, and
     * through the event in the outbox, in case this push never lands. Versions make the order moot.
     */
    tellMembership: (row: ProjectRow, deleted = false) => deps.factsPush.push(factsOf(row, deleted)),

    projectPayload: (actor: Principal | null, row: ProjectRow, deleted = false) => ({
      project_id: row.id,
      name: row.name,
      path: row.path,
      path_with_namespace: `${row.namespacePath}/${row.path}`,
      namespace_id: row.namespaceId,
      actor_id: actor?.userId ?? null,
      actor_username: actor?.username ?? null,
      facts: factsOf(row, deleted),
      created_at: row.createdAt.toISOString(),
      // ownerId is the namespace's owner, copied at create and transfer, and only a user's namespace
      // has one (identity's groups have none): the row tells the kind without reading the copy.
      namespace_kind: row.ownerId === null ? ('group' as const) : ('user' as const),
      namespace_name: row.namespaceName,
      repository_storage: row.repositoryStorage,
    }),
  };
}

export type CommandKit = ReturnType<typeof createCommandKit>;
