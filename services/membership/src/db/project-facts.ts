import type { ProjectAccess, ProjectFacts, Sql, TransactionSql } from '@hub/common';
import { AccessLevel } from '@hub/common';

type Db = Sql | TransactionSql;

/**
 * Stores what projects says about a project if it is newer than what is held; a deleted project
 * loses its team and stays as a tombstone. Returns whether anything changed.
 *
 * When membership first learns of a project, its creator joins the team as Master (40), as
 * GitLab 7.14's Projects::CreateService did (`@project.team << [current_user, :master]`): that row
 * is an ordinary membership (listed, shown as permissions.project_access, changed and removed like
 * any other). The namespace owner's Owner rights do not come from it but from owning the namespace
 * (access.ts), as GitLab's `project.owner == user` rules did. The feed's `joined` entry comes from
 * the project.created event, so no member.added is recorded here.
 */
export async function applyProjectFacts(tx: TransactionSql, facts: ProjectFacts): Promise<boolean> {
  const applied = await tx<{ inserted: boolean }[]>`
    insert into project_facts (project_id, owner_id, namespace_id, visibility_level, archived, issues_enabled,
      merge_requests_enabled, snippets_enabled, wiki_enabled, version, deleted)
    values (${facts.projectId}, ${facts.ownerId}, ${facts.namespaceId}, ${facts.visibilityLevel}, ${facts.archived}, ${facts.issuesEnabled},
      ${facts.mergeRequestsEnabled}, ${facts.snippetsEnabled}, ${facts.wikiEnabled}, ${facts.version}, ${facts.deleted})
    on conflict (project_id) do update set
      owner_id = excluded.owner_id, namespace_id = coalesce(excluded.namespace_id, project_facts.namespace_id),
      visibility_level = excluded.visibility_level, archived = excluded.archived,
      issues_enabled = excluded.issues_enabled, merge_requests_enabled = excluded.merge_requests_enabled,
      snippets_enabled = excluded.snippets_enabled, wiki_enabled = excluded.wiki_enabled,
      version = excluded.version, deleted = excluded.deleted, updated_at = now()
    where project_facts.version < excluded.version and not project_facts.deleted
    returning (xmax = 0) as inserted`;
  if (applied.length === 0) return false;
  if (facts.deleted) {
    await tx`delete from members where project_id = ${facts.projectId}`;
  } else if (applied[0].inserted && facts.creatorId !== null) {
    await tx`
      insert into members (project_id, user_id, access_level) values (${facts.projectId}, ${facts.creatorId}, ${AccessLevel.MASTER})
      on conflict (project_id, user_id) do nothing`;
  }
  return true;
}

/**
 * The access facts of `projectIds` for one user (anonymous: no membership), in one query. A group
 * member's level in the project's group comes beside the project membership: GitLab's
 * max_member_access took the higher of the two.
 */
export async function findAccess(
  sql: Db,
  userId: number | null,
  projectIds: readonly number[],
): Promise<Map<number, ProjectAccess>> {
  if (projectIds.length === 0) return new Map();
  const rows = await sql<ProjectAccess[]>`
    select f.project_id, f.owner_id, f.visibility_level, f.archived, f.issues_enabled, f.merge_requests_enabled,
      f.snippets_enabled, f.wiki_enabled, m.access_level as member_level, m.notification_level,
      g.access_level as group_level
    from project_facts f
    left join members m on m.project_id = f.project_id and m.user_id = ${userId ?? 0}
    left join group_members g on g.group_id = f.namespace_id and g.user_id = ${userId ?? 0}
    where f.project_id in ${sql(projectIds as number[])} and not f.deleted`;
  return new Map(rows.map((row) => [row.projectId, row]));
}
