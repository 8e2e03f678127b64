import { projectsEvents, type NamespaceSummary, type Principal } from '@hub/common';
import * as namespaceCopies from '../db/namespaces';
import * as projects from '../db/projects';
import type { CommandKit } from './kit';
import { mapUniqueViolation, refuseTaken } from './taken';

export type NewProject = Omit<
  projects.ProjectInsert,
  'namespaceId' | 'namespacePath' | 'namespaceName' | 'ownerId' | 'creatorId' | 'repositoryStorage'
>;

/**
 * A new project (created or forked) in `namespace`, on the shard placement picks. `creator` is
 * whom GitLab's CreateService ran as: the caller, or the user an admin creates the project for
 * (POST /projects/user/:user_id). Membership makes them a Master of the project.
 */
export async function insertProject(
  kit: CommandKit,
  principal: Principal,
  namespace: NamespaceSummary,
  values: NewProject,
  creator: { id: number; username: string | null } = { id: principal.userId!, username: principal.username },
) {
  const { sql } = kit;
  await refuseTaken(sql, namespace.id, values.name, values.path, null);
  const repositoryStorage = await kit.deps.placeRepository();
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
        ...kit.projectPayload(principal, created),
        forked_from_project_id: created.forkedFromProjectId,
        default_branch: created.defaultBranch,
        import_url: created.importUrl,
        creator_username: creator.username,
      });
      return created;
    })
    .catch(mapUniqueViolation(sql, namespace.id, values.name, values.path, null));
  await kit.tellMembership(row);
  return row;
}
