import { authorize, can, projectsEvents, requireUser, type Principal } from '@hub/common';
import * as namespaceCopies from '../db/namespaces';
import * as projects from '../db/projects';
import type { ProjectRow } from '../db/projects';
import type { CommandKit } from './kit';

async function deleteRow(kit: CommandKit, actor: Principal | null, row: ProjectRow): Promise<boolean> {
  const deleted = await kit.sql.begin(async (tx) => {
    const gone = await projects.deleteProject(tx, row.id);
    if (gone) await projectsEvents.record(tx, 'project.deleted', kit.projectPayload(actor, gone, true));
    return gone;
  });
  if (deleted) await kit.tellMembership(deleted, true);
  return Boolean(deleted);
}

async function deleteEach(kit: CommandKit, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const row = await kit.findProject(id);
    if (row) await deleteRow(kit, null, row);
  }
}

/**
 * Owner only. False when there is nothing the caller can see to delete: DELETE is idempotent.
 * This follows the spec (Errors, rule 1: deleting what does not exist still returns 200),
 * which is explicit, over GitLab 7.14's lib/api/projects.rb (`authorize! :remove_project,
 * user_project` answered 404 for a missing project). A private project the caller may not
 * see must answer exactly like a missing one, so it is "nothing to delete" too (and stays).
 */
export const remove =
  (kit: CommandKit) =>
  async (principal: Principal, id: number): Promise<boolean> => {
    requireUser(principal);
    const row = await kit.findProject(id);
    const access = row ? await kit.deps.access.loader(principal).load(id) : null;
    if (!row || !access || !can(access, principal, 'read_project')) return false;
    authorize(access, principal, 'remove_project');
    return deleteRow(kit, principal, row);
  };

/** A deleted group's projects go with it, as GitLab's `has_many :projects, dependent: :destroy` did. */
export const removeInNamespace =
  (kit: CommandKit) =>
  async (namespaceId: number): Promise<void> => {
    await deleteEach(kit, await projects.projectIdsInNamespace(kit.sql, namespaceId));
    await kit.sql.begin((tx) => namespaceCopies.deleteNamespace(tx, namespaceId));
  };

/** A deleted user's projects go with them, as in GitLab; each deletion cascades as usual. */
export const removeOwnedBy =
  (kit: CommandKit) =>
  async (userId: number): Promise<void> => {
    await deleteEach(kit, await projects.projectIdsOwnedBy(kit.sql, userId));
    await kit.sql.begin((tx) => namespaceCopies.deleteNamespacesOwnedBy(tx, userId));
  };
