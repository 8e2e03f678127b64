import { createInternalRouter, issuableMetadataCheck, labelsEnsure, serveEndpoint, type Logger, type Sql } from '@hub/common';
import type { Router } from 'express';
import { checkLabelNames } from '../domain/label-rules';
import type { Labels } from '../domain/labels';
import type { Milestones } from '../domain/milestones';

/**
 * What other services ask outside the graph: merge requests check the labels and milestone they
 * are given against the project's, and have the labels they name made.
 */
export function createInternalRoutes(deps: {
  sql: Sql;
  labels: Pick<Labels, 'ensureLabels'>;
  milestones: Pick<Milestones, 'milestoneOfProject'>;
  secret: string;
  logger: Logger;
}): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, issuableMetadataCheck, deps.logger, async ({ projectId, labels, milestoneId }) => {
    const checked = labels === null ? null : checkLabelNames(labels);
    const refused = checked !== null && Object.keys(checked.errors).length > 0;
    const milestone = milestoneId === null ? null : await deps.milestones.milestoneOfProject(projectId, milestoneId);
    return { labels: checked && !refused ? checked.names : null, labelErrors: checked?.errors ?? {}, milestoneId: milestone?.id ?? null };
  });
  serveEndpoint(router, labelsEnsure, deps.logger, async ({ projectId, names }) => {
    const checked = checkLabelNames(names);
    // Only names the check let through are ever sent; a refused one is not made.
    const made = checked.names.filter((name) => !checked.errors[name]);
    await deps.labels.ensureLabels(deps.sql, projectId, made);
    return { names: made };
  });
  return router;
}
