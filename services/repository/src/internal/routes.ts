import { createInternalRouter, protectedBranches, serveEndpoint, type Logger, type Sql } from '@hub/common';
import type { Router } from 'express';
import { protectedBranchNames } from '../db/protected-branches';

/** What other services ask the repository service outside the graph (merge requests: may this user merge?). */
export function createInternalRoutes(deps: { sql: Sql; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, protectedBranches, deps.logger, async ({ projectId }) => ({
    names: (await protectedBranchNames(deps.sql, [projectId])).get(projectId) ?? [],
  }));
  return router;
}
