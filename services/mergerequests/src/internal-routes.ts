import { createInternalRouter, internalHandler, MERGE_REQUEST_FIND_PATH, type Logger, type MergeRequestFindResponse, type Sql } from '@hub/common';
import type { Router } from 'express';
import { findMergeRequest } from './db/merge-requests';
import { mergeRequestAttributes } from './event-attributes';

/** What other services ask outside the graph: notes checks that a merge request is the project's (and
 * keeps its attributes for the note's event). */
export function createInternalRoutes(deps: { sql: Sql; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  router.post(
    MERGE_REQUEST_FIND_PATH,
    internalHandler(deps.logger, async (body): Promise<MergeRequestFindResponse> => {
      const projectId = Number(body.projectId);
      const id = Number(body.id);
      if (![projectId, id].every((n) => Number.isInteger(n) && n > 0 && n < 2 ** 31)) return { found: false, attributes: null };
      const mr = await findMergeRequest(deps.sql, projectId, id);
      return { found: Boolean(mr), attributes: mr ? mergeRequestAttributes(mr) : null };
    }),
  );
  return router;
}
