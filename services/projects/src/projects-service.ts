import {
  AccessLevel,
  badRequest,
  groupAccessLookup,
  namespacesLookup,
  type RequestOf,
  authorize,
  can,
  conflict,
  invalid,
  notFound,
  recordNotFound,
  projectsEvents,
  requireAdmin,
  requireUser,
  type AccessClient,
  type Ability,
  type FieldErrors,
  type InternalClient,
  type NamespaceSummary,
  type Principal,
  type ProjectAccess,
  type ProjectFacts,
  type Sql,
  isUniqueViolation,
} from '@hub/common';
import * as namespaceCopies from './db/namespaces';
import type { FactsPush } from './membership-facts';
import * as projects from './db/projects';
import type { ProjectChanges, ProjectRow } from './db/projects';
import {
  pathFromName,
  validateProjectAttributes,
  visibilityOf,
  type ProjectAttributes,
} from './domain/project-attributes';
import type { VisibilityRules } from './domain/visibility-rules';

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
const stillThere = (row: ProjectRow | undefined): ProjectRow => {
  if (!row) throw notFound('Project');
  return row;
};

const takenErrors = (taken: { name: boolean; path: boolean }): FieldErrors | null => {
  const fields: FieldErrors = {};
  if (taken.name) fields.name = ['has already been taken'];
  if (taken.path) fields.path = ['has already been taken'];
  return Object.keys(fields).length ? fields : null;
};

/** Everything projects does to its data; each change records its event and tells membership. */
export function createProjectsService(deps: {
  sql: Sql;
  identity: InternalClient;
  membership: InternalClient;
  access: AccessClient;
  visibility: VisibilityRules;
  /** The shard a new project's repository goes to. */
  placeRepository: () => Promise<string>;
  factsPush: FactsPush;
}) {
  const { sql } = deps;

  async function lookupNamespaces(request: RequestOf<typeof namespacesLookup>): Promise<NamespaceSummary[]> {
    return (await deps.identity.call(namespacesLookup, request)).namespaces;
  }

  const personalNamespace = async (userId: number) => (await lookupNamespaces({ ownerIds: [userId] }))[0];

  /** Namespaces as project responses show them: the local copy, filled from identity when missing. */
  async function namespacesByIds(ids: readonly number[]): Promise<Map<number, namespaceCopies.NamespaceCopyRow>> {
    const found = new Map((await namespaceCopies.findNamespaces(sql, ids)).map((n) => [n.id, n]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      await namespaceCopies.upsertNamespaces(sql, await lookupNamespaces({ ids: missing }));
      for (const n of await namespaceCopies.findNamespaces(sql, missing)) found.set(n.id, n);
    }
    return found;
  }

  /** Identity said a user changed: refresh the copies of their namespace, if projects holds any. */
  async function refreshOwner(userId: number): Promise<void> {
    if ((await projects.projectIdsOwnedBy(sql, userId)).length === 0) return;
    const fresh = await lookupNamespaces({ ownerIds: [userId] });
    await sql.begin(async (tx) => {
      await namespaceCopies.upsertNamespaces(tx, fresh);
      for (const n of fresh) await projects.renameNamespace(tx, userId, n.path, n.name);
    });
  }

  /** GitLab's create_projects on a namespace: its owner, a group's Masters and Owners, admins. */
  async function mayCreateIn(principal: Principal, namespace: NamespaceSummary): Promise<boolean> {
    if (principal.isAdmin) return true;
    if (namespace.kind === 'user') return namespace.ownerId === principal.userId;
    const { access } = await deps.membership.call(groupAccessLookup, {
      userId: principal.userId,
      groupIds: [namespace.id],
    });
    return (access[0]?.level ?? 0) >= AccessLevel.MASTER;
  }

  async function findProject(id: number): Promise<ProjectRow | undefined> {
    return (await projects.findProjectsByIds(sql, [id]))[0];
  }

  async function authorized(
    principal: Principal,
    id: number,
    ability: Ability,
  ): Promise<{ row: ProjectRow; access: ProjectAccess }> {
    const row = await findProject(id);
    const access = authorize(row ? await deps.access.loader(principal).load(id) : null, principal, ability);
    return { row: row!, access };
  }

  /**
   * Membership learns of every change twice: right here, so the next request sees it, and
   * through the event in the outbox, in case this push never lands. Versions make the order moot.
   */
  const tellMembership = (row: ProjectRow, deleted = false) => deps.factsPush.push(factsOf(row, deleted));

  const projectPayload = (actor: Principal | null, row: ProjectRow, deleted = false) => ({
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
  });

  async function refuseTaken(
    namespaceId: number,
    name: string | undefined,
    path: string | undefined,
    exceptId: number | null,
  ) {
    const fields = takenErrors(await projects.takenInNamespace(sql, namespaceId, name, path, exceptId));
    if (fields) throw conflict(fields);
  }

  /**
   * Two concurrent writes can both pass refuseTaken; the unique index decides. The loser is
   * answered as a repeat would be: the winner has committed, so refuseTaken now names every
   * field it took (the index names only the first).
   */
  const mapUniqueViolation =
    (namespaceId: number, name: string | undefined, path: string | undefined, exceptId: number | null) =>
    async (error: unknown): Promise<never> => {
      const pg = error as { code?: string; constraint_name?: string };
      if (!isUniqueViolation(pg)) throw error;
      await refuseTaken(namespaceId, name, path, exceptId);
      if (pg.constraint_name === 'projects_namespace_name_key') throw conflict({ name: ['has already been taken'] });
      if (pg.constraint_name === 'projects_namespace_path_key') throw conflict({ path: ['has already been taken'] });
      throw error;
    };

  /**
   * `creator` is whom GitLab's CreateService ran as: the caller, or the user an admin creates the
   * project for (POST /projects/user/:user_id). Membership makes them a Master of the project.
   */
  async function insert(
    principal: Principal,
    namespace: NamespaceSummary,
    values: Omit<
      projects.ProjectInsert,
      'namespaceId' | 'namespacePath' | 'namespaceName' | 'ownerId' | 'creatorId' | 'repositoryStorage'
    >,
    creator: { id: number; username: string | null } = { id: principal.userId!, username: principal.username },
  ) {
    await refuseTaken(namespace.id, values.name, values.path, null);
    const repositoryStorage = await deps.placeRepository();
    const row = await sql
      .begin(async (tx) => {
        await namespaceCopies.upsertNamespaces(tx, [namespace]);
        const created = await projects.insertProject(tx, {
          ...values,
          namespaceId: namespace.id,
          namespacePath: namespace.path,
          namespaceName: namespace.name,
          ownerId: namespace.ownerId,
          creatorId: creator.id,
          repositoryStorage,
        });
        // The repository service makes the repository from these (forked or imported when asked).
        await projectsEvents.record(tx, 'project.created', {
          ...projectPayload(principal, created),
          forked_from_project_id: created.forkedFromProjectId,
          default_branch: created.defaultBranch,
          import_url: created.importUrl,
          creator_username: creator.username,
        });
        return created;
      })
      .catch(mapUniqueViolation(namespace.id, values.name, values.path, null));
    await tellMembership(row);
    return row;
  }

  async function deleteRow(actor: Principal | null, row: ProjectRow): Promise<boolean> {
    const deleted = await sql.begin(async (tx) => {
      const gone = await projects.deleteProject(tx, row.id);
      if (gone) await projectsEvents.record(tx, 'project.deleted', projectPayload(actor, gone, true));
      return gone;
    });
    if (deleted) await tellMembership(deleted, true);
    return Boolean(deleted);
  }

  return {
    findProject,
    namespacesByIds,
    refreshOwner,

    /** GitLab's create: the caller's namespace unless another one they own (any, for admins) is named. */
    async create(principal: Principal, attrs: ProjectAttributes & { namespaceId?: number | null }, forUserId?: number) {
      requireUser(principal);
      let namespace: NamespaceSummary | undefined;
      if (forUserId !== undefined) {
        requireAdmin(principal);
        namespace = await personalNamespace(forUserId);
        // GitLab 7.14 looked the user up with User.find: RecordNotFound's answer.
        if (!namespace) throw recordNotFound();
      } else if (attrs.namespaceId !== undefined && attrs.namespaceId !== null) {
        [namespace] = await lookupNamespaces({ ids: [attrs.namespaceId] });
        if (!namespace || !(await mayCreateIn(principal, namespace))) throw invalid({ namespace: ['is not valid'] });
      } else {
        namespace = await personalNamespace(principal.userId!);
        if (!namespace) throw notFound('Namespace');
      }
      validateProjectAttributes(attrs, true);
      const name = attrs.name!;
      const path = attrs.path ?? pathFromName(name);
      if (path === '') throw invalid({ path: ["can't be blank"] });
      return insert(
        principal,
        namespace,
        {
          name,
          path,
          description: attrs.description ?? null,
          defaultBranch: attrs.defaultBranch ?? 'master',
          visibilityLevel: await deps.visibility.forNewProject(
            principal,
            visibilityOf(attrs),
            forUserId === undefined ? undefined : { id: forUserId, identity: deps.identity },
          ),
          issuesEnabled: attrs.issuesEnabled ?? true,
          mergeRequestsEnabled: attrs.mergeRequestsEnabled ?? true,
          wikiEnabled: attrs.wikiEnabled ?? true,
          snippetsEnabled: attrs.snippetsEnabled ?? false,
          archived: false,
          importUrl: attrs.importUrl ?? null,
          forkedFromProjectId: null,
        },
        forUserId !== undefined ? { id: forUserId, username: namespace.path } : undefined,
      );
    },

    /**
     * Settings, the path included, need Master; a name or a visibility level that is sent needs
     * Owner, changed or not (GitLab 7.14's PUT /projects/:id authorized on presence).
     */
    async update(principal: Principal, id: number, attrs: ProjectAttributes) {
      requireUser(principal);
      const { row, access } = await authorized(principal, id, 'admin_project');
      const changes: ProjectChanges = {};
      const set = <K extends keyof ProjectChanges>(key: K, value: ProjectChanges[K] | null | undefined) => {
        if (value !== undefined && value !== null && value !== row[key]) changes[key] = value;
      };
      set('name', attrs.name);
      set('path', attrs.path);
      set('description', attrs.description);
      set('defaultBranch', attrs.defaultBranch);
      set('visibilityLevel', visibilityOf(attrs));
      set('issuesEnabled', attrs.issuesEnabled);
      set('mergeRequestsEnabled', attrs.mergeRequestsEnabled);
      set('wikiEnabled', attrs.wikiEnabled);
      set('snippetsEnabled', attrs.snippetsEnabled);
      set('archived', attrs.archived);
      validateProjectAttributes(attrs, false);
      if (attrs.name != null && attrs.name.trim() !== '') authorize(access, principal, 'rename_project');
      if (visibilityOf(attrs) !== undefined) authorize(access, principal, 'change_visibility_level');
      await deps.visibility.checkChange(principal, row.visibilityLevel, visibilityOf(attrs));
      if (Object.keys(changes).length === 0) return row;
      await refuseTaken(row.namespaceId, changes.name, changes.path, row.id);
      const updated = await sql
        .begin(async (tx) => {
          const after = stillThere(await projects.updateProject(tx, id, changes));
          await projectsEvents.record(tx, 'project.updated', projectPayload(principal, after));
          return after;
        })
        .catch(mapUniqueViolation(row.namespaceId, changes.name, changes.path, row.id));
      await tellMembership(updated);
      return updated;
    },

    /**
     * Owner only. False when there is nothing the caller can see to delete: DELETE is idempotent.
     * This follows the spec (Errors, rule 1: deleting what does not exist still returns 200),
     * which is explicit, over GitLab 7.14's lib/api/projects.rb (`authorize! :remove_project,
     * user_project` answered 404 for a missing project). A private project the caller may not
     * see must answer exactly like a missing one, so it is "nothing to delete" too (and stays).
     */
    async remove(principal: Principal, id: number): Promise<boolean> {
      requireUser(principal);
      const row = await findProject(id);
      const access = row ? await deps.access.loader(principal).load(id) : null;
      if (!row || !access || !can(access, principal, 'read_project')) return false;
      authorize(access, principal, 'remove_project');
      return deleteRow(principal, row);
    },

    /**
     * GitLab 7.14's POST /groups/:id/projects/:project_id (admins only): the project moves into
     * the group. Its repository stays where it is (stored by id), so nothing on disk moves.
     * Refusals are 7.14's TransferService answers in its "Failed to transfer project" form.
     */
    async transfer(principal: Principal, id: number, namespaceId: number) {
      requireAdmin(principal);
      const row = await findProject(id);
      if (!row) throw recordNotFound();
      const refuse = (message: string) =>
        badRequest(`Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}`);
      const [namespace] = await lookupNamespaces({ ids: [namespaceId] });
      if (!namespace || namespace.kind !== 'group' || namespace.id === row.namespaceId) throw refuse('is invalid');
      // Names are unique per namespace here as well as paths: either collision refuses the move.
      const taken = await projects.takenInNamespace(sql, namespace.id, row.name, row.path, row.id);
      if (taken.path || taken.name) {
        throw refuse('Project with same path in target namespace already exists');
      }
      const moved = await sql
        .begin(async (tx) => {
          await namespaceCopies.upsertNamespaces(tx, [namespace]);
          const after = stillThere(
            await projects.updateProject(tx, id, {
              namespaceId: namespace.id,
              namespacePath: namespace.path,
              namespaceName: namespace.name,
              ownerId: namespace.ownerId,
            }),
          );
          await projectsEvents.record(tx, 'project.updated', projectPayload(principal, after));
          return after;
        })
        .catch((error: { code?: string }) => {
          if (isUniqueViolation(error)) throw refuse('Project with same path in target namespace already exists');
          throw error;
        });
      await tellMembership(moved);
      return { project: moved, namespace };
    },

    /** A deleted group's projects go with it, as GitLab's `has_many :projects, dependent: :destroy` did. */
    async removeInNamespace(namespaceId: number): Promise<void> {
      for (const id of await projects.projectIdsInNamespace(sql, namespaceId)) {
        const row = await findProject(id);
        if (row) await deleteRow(null, row);
      }
      await sql.begin((tx) => namespaceCopies.deleteNamespace(tx, namespaceId));
    },

    /** A deleted user's projects go with them, as in GitLab; each deletion cascades as usual. */
    async removeOwnedBy(userId: number): Promise<void> {
      for (const id of await projects.projectIdsOwnedBy(sql, userId)) {
        const row = await findProject(id);
        if (row) await deleteRow(null, row);
      }
      await sql.begin((tx) => namespaceCopies.deleteNamespacesOwnedBy(tx, userId));
    },

    /** A copy of the project's settings in the caller's namespace, marked as its fork. */
    async fork(principal: Principal, id: number) {
      const userId = requireUser(principal);
      const { row: source } = await authorized(principal, id, 'fork_project');
      const namespace = await personalNamespace(userId);
      if (!namespace) throw notFound('Namespace');
      return insert(principal, namespace, {
        name: source.name,
        path: source.path,
        description: source.description,
        defaultBranch: source.defaultBranch,
        visibilityLevel: source.visibilityLevel,
        issuesEnabled: source.issuesEnabled,
        mergeRequestsEnabled: source.mergeRequestsEnabled,
        wikiEnabled: source.wikiEnabled,
        snippetsEnabled: source.snippetsEnabled,
        archived: false,
        importUrl: null,
        forkedFromProjectId: source.id,
      });
    },

    async createForkRelation(principal: Principal, id: number, forkedFromId: number) {
      requireAdmin(principal);
      const row = await findProject(id);
      if (!row) throw notFound('Project');
      if (!(await findProject(forkedFromId))) throw notFound('Source Project');
      if (row.forkedFromProjectId !== null) throw conflict('Project already forked');
      return sql.begin(async (tx) => {
        // Concurrent requests all pass the check above; the row settles which one sets the relation.
        const updated = await projects.setForkedFrom(tx, id, forkedFromId);
        if (!updated) throw conflict('Project already forked');
        await projectsEvents.record(tx, 'project.updated', projectPayload(principal, updated));
        return updated;
      });
    },

    /** Succeeds also for a project that is not a fork. */
    async deleteForkRelation(principal: Principal, id: number) {
      requireAdmin(principal);
      const row = await findProject(id);
      if (!row) throw notFound('Project');
      if (row.forkedFromProjectId === null) return row;
      return sql.begin(async (tx) => {
        const updated = stillThere(await projects.updateProject(tx, id, { forkedFromProjectId: null }));
        await projectsEvents.record(tx, 'project.updated', projectPayload(principal, updated));
        return updated;
      });
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
