import { createInternalRouter, issuableMetadataPrepare, serveEndpoint, type Logger, type Sql } from '@hub/common';
import type { Router } from 'express';
import type { Labels } from '../domain/labels';
import type { Milestones } from '../domain/milestones';

/**
 * What other services ask outside the graph: a merge request about to be saved has the labels it
 * names made in its project and learns whether its milestone is the project's. It checks the label
 * names itself, with the same rules (@hub/common's label-rules), before it asks.
 */
export function createInternalRoutes(deps: {
  sql: Sql;
  labels: Pick<Labels, 'ensureLabels'>;
  milestones: Pick<Milestones, 'milestoneOfProject'>;
  secret: string;
  logger: Logger;
}): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, issuableMetadataPrepare, deps.logger, async ({ projectId, labels, milestoneId }) => {
    await deps.labels.ensureLabels(deps.sql, projectId, labels);
    const milestone = milestoneId === null ? null : await deps.milestones.milestoneOfProject(projectId, milestoneId);
    return { milestoneId: milestone?.id ?? null };
  });
  return router;
}
