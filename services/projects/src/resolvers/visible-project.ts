import { can } from '@hub/common';
import type { ProjectRow } from '../db/projects';
import type { ProjectsContext } from '../context';

/** A project the viewer may see, or null: a private project never reveals that it exists. */
export async function visibleProject(
  row: ProjectRow | null | undefined,
  { principal, loaders }: ProjectsContext,
): Promise<ProjectRow | null> {
  if (!row) return null;
  const access = await loaders.access.load(row.id);
  return access && can(access, principal, 'read_project') ? row : null;
}
