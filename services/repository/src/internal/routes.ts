import {
  commitFind,
  createInternalRouter,
  DomainError,
  ErrorCode,
  protectedBranches,
  serveEndpoint,
  type Logger,
  type Sql,
} from '@hub/common';
import type { Router } from 'express';
import { branchProtectionOf } from '../db/protected-branches';
import type { Git } from '../git';

/**
 * What other services ask the repository service outside the graph: merge requests, may this user
 * merge; notes, which commit a comment is on.
 */
export function createInternalRoutes(deps: { sql: Sql; git: Git; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, protectedBranches, deps.logger, async ({ projectId }) => {
    const protection = await branchProtectionOf(deps.sql, projectId);
    return { names: [...protection.protected], developersCanPush: [...protection.developersCanPush] };
  });
  serveEndpoint(router, commitFind, deps.logger, async ({ projectId, ref }) => {
    // A malformed ref names no commit either: the caller only asks whether there is one.
    const commit = await deps.git.findCommit(projectId, ref).catch((error) => {
      if (error instanceof DomainError && error.code === ErrorCode.VALIDATION) return null;
      throw error;
    });
    return {
      commit: commit && {
        id: commit.id,
        message: commit.message,
        timestamp: commit.author?.date ?? null,
        author: { name: commit.author?.name ?? '', email: commit.author?.email ?? '' },
      },
    };
  });
  return router;
}
