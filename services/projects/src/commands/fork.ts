import { conflict, notFound, projectsEvents, requireAdmin, requireUser, type Principal } from '@hub/common';
import * as projects from '../db/projects';
import { insertProject } from './insert';
import { stillThere, type CommandKit } from './kit';

/** A copy of the project's settings in the caller's namespace, marked as its fork. */
export const fork = (kit: CommandKit) => async (principal: Principal, id: number) => {
  const userId = requireUser(principal);
  const { row: source } = await kit.authorized(principal, id, 'fork_project');
  const namespace = await kit.personalNamespace(userId);
  if (!namespace) throw notFound('Namespace');
  return insertProject(kit, principal, namespace, {
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
};

export const createForkRelation =
  (kit: CommandKit) => async (principal: Principal, id: number, forkedFromId: number) => {
    requireAdmin(principal);
    const row = await kit.findProject(id);
    if (!row) throw notFound('Project');
    if (!(await kit.findProject(forkedFromId))) throw notFound('Source Project');
    if (row.forkedFromProjectId !== null) throw conflict('Project already forked');
    return kit.sql.begin(async (tx) => {
      // Concurrent requests all pass the check above; the row settles which one sets the relation.
      const updated = await projects.setForkedFrom(tx, id, forkedFromId);
      if (!updated) throw conflict('Project already forked');
      await projectsEvents.record(tx, 'project.updated', kit.projectPayload(principal, updated));
      return updated;
    });
  };

/** Succeeds also for a project that is not a fork. */
export const deleteForkRelation = (kit: CommandKit) => async (principal: Principal, id: number) => {
  requireAdmin(principal);
  const row = await kit.findProject(id);
  if (!row) throw notFound('Project');
  if (row.forkedFromProjectId === null) return row;
  return kit.sql.begin(async (tx) => {
    const updated = stillThere(await projects.updateProject(tx, id, { forkedFromProjectId: null }));
    await projectsEvents.record(tx, 'project.updated', kit.projectPayload(principal, updated));
    return updated;
  });
};
