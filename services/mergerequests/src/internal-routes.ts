import { createInternalRouter, internalHandler, MERGE_REQUEST_FIND_PATH, type Logger, type MergeRequestFindResponse, type Sql } from '@hub/common';
import type { Router } from 'express';
import { findMergeRequest } from './db/merge-requests';

/** What other services ask outside the graph: notes checks that a merge request is the project's. */
export function createInternalRoutes(deps: { sql: Sql; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  router.post(
    MERGE_REQUEST_FIND_PATH,
    internalHandler(deps.logger, async (body): Promise<MergeRequestFindResponse> => {
      const projectId = Number(body.projectId);
      const id = Number(body.id);
      if (![projectId, id].every((n) => Number.isInteger(n) && n > 0 && n < 2 ** 31)) return { found: false };
      return { found: Boolean(await findMergeRequest(deps.sql, projectId, id)) };
    }),
  );
  return router;
}
