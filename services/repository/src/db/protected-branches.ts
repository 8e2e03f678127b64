import type { Sql } from '@hub/common';

export async function protectedBranchNames(sql: Sql, projectIds: readonly number[]): Promise<Map<number, string[]>> {
  const rows = await sql<{ projectId: number; name: string }[]>`
    select project_id, name from protected_branches where project_id in ${sql(projectIds as number[])} order by name`;
  const byProject = new Map<number, string[]>();
  for (const row of rows) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row.name]);
  return byProject;
}

/** The protected branches Developers may push to, per project. */
export async function developerPushableBranchNames(sql: Sql, projectIds: readonly number[]): Promise<Map<number, string[]>> {
  const rows = await sql<{ projectId: number; name: string }[]>`
    select project_id, name from protected_branches
    where project_id in ${sql(projectIds as number[])} and developers_can_push order by name`;
  const byProject = new Map<number, string[]>();
  for (const row of rows) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row.name]);
  return byProject;
}

/** A branch already protected keeps its rule. */
export async function protect(sql: Sql, projectId: number, name: string, developersCanPush = false): Promise<void> {
  await sql`insert into protected_branches (project_id, name, developers_can_push) values (${projectId}, ${name}, ${developersCanPush}) on conflict do nothing`;
}

export async function unprotect(sql: Sql, projectId: number, name: string): Promise<void> {
  await sql`delete from protected_branches where project_id = ${projectId} and name = ${name}`;
}

export async function forgetProject(sql: Sql, projectId: number): Promise<void> {
  await sql`delete from protected_branches where project_id = ${projectId}`;
}
