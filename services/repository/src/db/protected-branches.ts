import { buryProject, holdProject, repositoryEvents, type Principal, type Sql, type TransactionSql } from '@hub/common';
import type { BranchProtection } from '../branch-push-rules';

export const UNPROTECTED: BranchProtection = { protected: [], developersCanPush: [] };

/** Each project's protected branches and those of them Developers may push to, in one query. */
export async function branchProtections(
  sql: Sql,
  projectIds: readonly number[],
): Promise<Map<number, BranchProtection>> {
  const rows = await sql<{ projectId: number; name: string; developersCanPush: boolean }[]>`
    select project_id, name, developers_can_push from protected_branches
    where project_id in ${sql(projectIds as number[])} order by name`;
  const byProject = new Map<number, { protected: string[]; developersCanPush: string[] }>();
  for (const row of rows) {
    let protection = byProject.get(row.projectId);
    if (!protection) byProject.set(row.projectId, (protection = { protected: [], developersCanPush: [] }));
    protection.protected.push(row.name);
    if (row.developersCanPush) protection.developersCanPush.push(row.name);
  }
  return byProject;
}

/** One project's protection (none when it protects no branch). */
export async function branchProtectionOf(sql: Sql, projectId: number): Promise<BranchProtection> {
  return (await branchProtections(sql, [projectId])).get(projectId) ?? UNPROTECTED;
}

/** A protection changed by hand, as an event: the project's branches show it. */
const recordProtection = (
  tx: TransactionSql,
  type: 'branch.protected' | 'branch.unprotected',
  actor: Principal,
  projectId: number,
  branch: string,
  developersCanPush: boolean,
) =>
  repositoryEvents.record(tx, type, {
    project_id: projectId,
    actor_id: actor.userId,
    actor_username: actor.username,
    branch,
    developers_can_push: developersCanPush,
  });

/**
 * A branch already protected keeps its rule. A project whose deletion was applied gets no rule (a
 * late first-push event or a protect racing the deletion would leave one behind for good). A
 * protection made by hand is recorded as an event: the project's branches show it.
 */
export async function protect(
  sql: Sql,
  projectId: number,
  name: string,
  developersCanPush = false,
  byHand: Principal | null = null,
): Promise<void> {
  await sql.begin(async (tx) => {
    if (!(await holdProject(tx, projectId))) return;
    const [added] =
      await tx`insert into protected_branches (project_id, name, developers_can_push) values (${projectId}, ${name}, ${developersCanPush}) on conflict do nothing returning 1`;
    if (added && byHand) await recordProtection(tx, 'branch.protected', byHand, projectId, name, developersCanPush);
  });
}

export async function unprotect(
  sql: Sql,
  projectId: number,
  name: string,
  byHand: Principal | null = null,
): Promise<void> {
  await sql.begin(async (tx) => {
    const [removed] = await tx<{ developersCanPush: boolean }[]>`
      delete from protected_branches where project_id = ${projectId} and name = ${name} returning developers_can_push`;
    if (removed && byHand)
      await recordProtection(tx, 'branch.unprotected', byHand, projectId, name, removed.developersCanPush);
  });
}

/** Once no protect on the project is in flight, and for good (project-tombstones). */
export async function forgetProject(sql: Sql, projectId: number): Promise<void> {
  await buryProject(sql, projectId, (tx) => tx`delete from protected_branches where project_id = ${projectId}`);
}
