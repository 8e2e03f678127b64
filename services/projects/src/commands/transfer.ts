import {
  badRequest,
  isUniqueViolation,
  projectsEvents,
  recordNotFound,
  requireAdmin,
  type Principal,
} from '@hub/common';
import * as namespaceCopies from '../db/namespaces';
import * as projects from '../db/projects';
import { stillThere, type CommandKit } from './kit';

/**
 * GitLab 7.14's POST /groups/:id/projects/:project_id (admins only): the project moves into
 * the group. Its repository stays where it is (stored by id), so nothing on disk moves.
 * Refusals are 7.14's TransferService answers in its "Failed to transfer project" form.
 */
export const transfer = (kit: CommandKit) => async (principal: Principal, id: number, namespaceId: number) => {
  const { sql } = kit;
  requireAdmin(principal);
  const row = await kit.findProject(id);
  if (!row) throw recordNotFound();
  const refuse = (message: string) =>
    badRequest(`Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}`);
  const [namespace] = await kit.lookupNamespaces({ ids: [namespaceId] });
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
      await projectsEvents.record(tx, 'project.updated', kit.projectPayload(principal, after));
      return after;
    })
    .catch((error: { code?: string }) => {
      if (isUniqueViolation(error)) throw refuse('Project with same path in target namespace already exists');
      throw error;
    });
  await kit.tellMembership(moved);
  return { project: moved, namespace };
};
