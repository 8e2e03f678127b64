import { createInternalRouter, mergeRequestFind, serveEndpoint, type Logger, type Sql } from '@hub/common';
import type { Router } from 'express';
import { findMergeRequest } from '../db/merge-requests';
import { mergeRequestAttributes } from '../event-attributes';

/**
 * What other services ask outside the graph: notes checks that a merge request is the project's
 * (and keeps its attributes for the note's event).
 */
export function createInternalRoutes(deps: { sql: Sql; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, mergeRequestFind, deps.logger, async ({ projectId, id }) => {
    const mr = await findMergeRequest(deps.sql, projectId, id);
    return { found: Boolean(mr), attributes: mr ? mergeRequestAttributes(mr) : null };
  });
  return router;
}
