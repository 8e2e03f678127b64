import type { Logger, Sql, StreamedEvent } from '@hub/common';
import { forgetProject, protect } from './db/protected-branches';
import type { Git } from './git';

/**
 * Repositories follow their projects: created with the project (forked or imported when it was),
 * removed with it. Each step is idempotent, so a redelivered event is harmless.
 */
export function createEventHandler(deps: { sql: Sql; git: Git; logger: Logger }) {
  return async (event: StreamedEvent): Promise<void> => {
    // GitLab's default: the first push of the default branch into an empty repository protects it.
    if (event.service === 'git_worker') {
      if (event.type === 'push' && event.payload.first_push_to_default_branch === true) {
        await protect(deps.sql, Number(event.payload.project_id), String(event.payload.default_branch));
      }
      return;
    }
    if (event.service !== 'projects') return;
    const projectId = Number(event.payload.project_id);
    if (!Number.isInteger(projectId)) return;
    if (event.type === 'project.created') {
      const forkedFrom = Number(event.payload.forked_from_project_id);
      if (Number.isInteger(forkedFrom) && forkedFrom > 0) {
        try {
          await deps.git.forkRepository(projectId, forkedFrom);
          return;
        } catch (error) {
          deps.logger.warn({ err: error, projectId, forkedFrom }, 'fork source has no repository; creating an empty one');
        }
      }
      await deps.git.createRepository(projectId, String(event.payload.default_branch ?? 'master'));
      const importUrl = event.payload.import_url;
      if (typeof importUrl === 'string' && importUrl) {
        // An import that fails leaves an empty repository, as in GitLab; the reason is logged.
        await deps.git.importRepository(projectId, importUrl).catch((error) => deps.logger.warn({ err: error, projectId }, 'import failed'));
      }
    } else if (event.type === 'project.deleted') {
      await deps.git.deleteRepository(projectId);
      await forgetProject(deps.sql, projectId);
    }
  };
}
