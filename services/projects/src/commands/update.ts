import { authorize, projectsEvents, requireUser, type Principal } from '@hub/common';
import * as projects from '../db/projects';
import type { ProjectChanges } from '../db/projects';
import { validateProjectAttributes, visibilityOf, type ProjectAttributes } from '../domain/project-attributes';
import { stillThere, type CommandKit } from './kit';
import { mapUniqueViolation, refuseTaken } from './taken';

/**
 * Settings, the path included, need Master; a name or a visibility level that is sent needs
 * Owner, changed or not (GitLab 7.14's PUT /projects/:id authorized on presence).
 */
export const update = (kit: CommandKit) => async (principal: Principal, id: number, attrs: ProjectAttributes) => {
  const { sql } = kit;
  requireUser(principal);
  const { row, access } = await kit.authorized(principal, id, 'admin_project');
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
  await kit.deps.visibility.checkChange(principal, row.visibilityLevel, visibilityOf(attrs));
  if (Object.keys(changes).length === 0) return row;
  await refuseTaken(sql, row.namespaceId, changes.name, changes.path, row.id);
  const updated = await sql
    .begin(async (tx) => {
      const after = stillThere(await projects.updateProject(tx, id, changes));
      await projectsEvents.record(tx, 'project.updated', kit.projectPayload(principal, after));
      return after;
    })
    .catch(mapUniqueViolation(sql, row.namespaceId, changes.name, changes.path, row.id));
  await kit.tellMembership(updated);
  return updated;
};
