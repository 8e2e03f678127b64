import {
  createKnownEventReader,
  DomainError,
  ErrorCode,
  type Logger,
  type SettingsClient,
  type Sql,
  type StreamedEvent,
} from '@hub/common';
import type { GitShards } from '@hub/protos';
import { forgetStorage, recordStorage } from './db/project-storages';
import { forgetProject, protect } from './db/protected-branches';
import type { Git } from './git';

/** GitLab's Gitlab::Access protection levels (default_branch_protection). */
export const BRANCH_PROTECTION = { NONE: 0, DEVELOPERS_CAN_PUSH: 1, FULL: 2 } as const;

/**
 * default_branch_protection for a first push. The settings client answers its last copy while
 * identity is down; with no copy at all this answers GitLab's default (full protection) rather
 * than failing: a failing handler is retried only a few times, and a first push is never seen
 * again, so its branch would stay unprotected for good.
 */
export async function firstPushProtection(settings: Pick<SettingsClient, 'get'>, logger: Logger): Promise<number> {
  try {
    return (await settings.get()).defaultBranchProtection;
  } catch (error) {
    logger.warn({ err: error }, 'application settings unavailable; protecting the default branch fully');
    return BRANCH_PROTECTION.FULL;
  }
}

/**
 * Which events must be handled in order (consumeEvents' orderKeys): each project's own, and a
 * fork's creation after everything before it on its source, whose repository it copies. The
 * events the handler ignores need no order. One project's import or large fork then holds up
 * only that project's events, not every first push behind it.
 */
export function createEventOrder(logger: Logger) {
  const read = createKnownEventReader(logger);
  return (event: StreamedEvent): string[] | null => {
    const known = read(event);
    switch (known?.key) {
      case 'git_worker:push':
      case 'projects:project.deleted':
        return [`project:${known.payload.project_id}`];
      case 'projects:project.created': {
        const { project_id: projectId, forked_from_project_id: forkedFrom } = known.payload;
        return forkedFrom ? [`project:${projectId}`, `project:${forkedFrom}`] : [`project:${projectId}`];
      }
      default:
        return [];
    }
  };
}

/**
 * Repositories follow their projects: created with the project (forked or imported when it was)
 * on the shard projects chose, removed with it. Each step is idempotent, so a redelivered event is
 * harmless. An event acted on here needs its order keys in createEventOrder.
 */
export function createEventHandler(deps: {
  sql: Sql;
  git: Git;
  shards: Pick<GitShards, 'remember'>;
  logger: Logger;
  settings: SettingsClient;
}) {
  const read = createKnownEventReader(deps.logger);
  return async (event: StreamedEvent): Promise<void> => {
    const known = read(event);
    switch (known?.key) {
      case 'git_worker:push': {
        // GitLab's GitPushService: the first push of the default branch into an empty repository
        // protects it as default_branch_protection says: 0 not at all, 1 with developers_can_push,
        // 2 (GitLab's default) for Masters only.
        const push = known.payload;
        if (!push.first_push_to_default_branch) break;
        const defaultBranchProtection = await firstPushProtection(deps.settings, deps.logger);
        if (defaultBranchProtection !== BRANCH_PROTECTION.NONE) {
          await protect(
            deps.sql,
            push.project_id,
            push.default_branch,
            defaultBranchProtection === BRANCH_PROTECTION.DEVELOPERS_CAN_PUSH,
          );
        }
        break;
      }
      case 'projects:project.created': {
        const {
          project_id: projectId,
          forked_from_project_id: forkedFrom,
          default_branch: defaultBranch,
          import_url: importUrl,
          repository_storage: storage,
        } = known.payload;
        // Recorded first: the other replicas find the shard here when asked about the project.
        await recordStorage(deps.sql, projectId, storage);
        deps.shards.remember(projectId, storage);
        if (forkedFrom) {
          try {
            await deps.git.forkRepository(projectId, forkedFrom);
            return;
          } catch (error) {
            // Only a source without a repository makes an empty fork; a shard out of reach fails
            // the event, which is delivered again.
            if (!(error instanceof DomainError && error.code === ErrorCode.NOT_FOUND)) throw error;
            deps.logger.warn(
              { err: error, projectId, forkedFrom },
              'fork source has no repository; creating an empty one',
            );
          }
        }
        await deps.git.createRepository(projectId, defaultBranch);
        if (importUrl) {
          // An import that fails leaves an empty repository, as in GitLab; the reason is logged.
          await deps.git
            .importRepository(projectId, importUrl)
            .catch((error) => deps.logger.warn({ err: error, projectId }, 'import failed'));
        }
        break;
      }
      case 'projects:project.deleted':
        deps.shards.remember(known.payload.project_id, known.payload.repository_storage);
        await deps.git.deleteRepository(known.payload.project_id);
        await forgetProject(deps.sql, known.payload.project_id);
        await forgetStorage(deps.sql, known.payload.project_id);
        break;
    }
  };
}
