import { createInternalRouter, internalHandler, PROTECTED_BRANCHES_PATH, type Logger, type ProtectedBranchesResponse, type Sql } from '@hub/common';
import type { Router } from 'express';
import { protectedBranchNames } from './db/protected-branches';

/** What other services ask the repository service outside the graph (merge requests: may this user merge?). */
export function createInternalRoutes(deps: { sql: Sql; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  router.post(
    PROTECTED_BRANCHES_PATH,
    internalHandler(deps.logger, async (body): Promise<ProtectedBranchesResponse> => {
      const projectId = Number(body.projectId);
      if (!Number.isInteger(projectId) || projectId < 1) return { names: [] };
      return { names: (await protectedBranchNames(deps.sql, [projectId])).get(projectId) ?? [] };
    }),
  );
  return router;
}
