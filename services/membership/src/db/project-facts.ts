import type { ProjectAccess, ProjectFacts, Sql, TransactionSql } from '@hub/common';
import { AccessLevel } from '@hub/common';

type Db = Sql | TransactionSql;

/**
 * Stores what projects says about a project if it is newer than what is held. The namespace owner
 * is kept in the team as Owner; a deleted project loses its team and stays as a tombstone.
 * Returns whether anything changed.
 */
export async function applyProjectFacts(tx: TransactionSql, facts: ProjectFacts): Promise<boolean> {
  const applied = await tx`
    insert into project_facts (project_id, owner_id, visibility_level, archived, issues_enabled,
      merge_requests_enabled, snippets_enabled, wiki_enabled, version, deleted)
    values (${facts.projectId}, ${facts.ownerId}, ${facts.visibilityLevel}, ${facts.archived}, ${facts.issuesEnabled},
      ${facts.mergeRequestsEnabled}, ${facts.snippetsEnabled}, ${facts.wikiEnabled}, ${facts.version}, ${facts.deleted})
    on conflict (project_id) do update set
      owner_id = excluded.owner_id, visibility_level = excluded.visibility_level, archived = excluded.archived,
      issues_enabled = excluded.issues_enabled, merge_requests_enabled = excluded.merge_requests_enabled,
      snippets_enabled = excluded.snippets_enabled, wiki_enabled = excluded.wiki_enabled,
      version = excluded.version, deleted = excluded.deleted, updated_at = now()
    where project_facts.version < excluded.version and not project_facts.deleted
    returning project_id`;
  if (applied.length === 0) return false;
  if (facts.deleted) {
    await tx`delete from members where project_id = ${facts.projectId}`;
  } else if (facts.ownerId !== null) {
    await tx`
      insert into members (project_id, user_id, access_level) values (${facts.projectId}, ${facts.ownerId}, ${AccessLevel.OWNER})
      on conflict (project_id, user_id) do update set access_level = ${AccessLevel.OWNER}, updated_at = now()
      where members.access_level <> ${AccessLevel.OWNER}`;
  }
  return true;
}

/** The access facts of `projectIds` for one user (anonymous: no membership), in one query. */
export async function findAccess(sql: Db, userId: number | null, projectIds: readonly number[]): Promise<Map<number, ProjectAccess>> {
  if (projectIds.length === 0) return new Map();
  const rows = await sql<ProjectAccess[]>`
    select f.project_id, f.owner_id, f.visibility_level, f.archived, f.issues_enabled, f.merge_requests_enabled,
      f.snippets_enabled, f.wiki_enabled, m.access_level as member_level, m.notification_level
    from project_facts f
    left join members m on m.project_id = f.project_id and m.user_id = ${userId ?? 0}
    where f.project_id in ${sql(projectIds as number[])} and not f.deleted`;
  return new Map(rows.map((row) => [row.projectId, row]));
}
