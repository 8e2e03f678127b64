import { accessLookup, applyProjectFacts as applyProjectFactsEndpoint, createInternalRouter, memberProjects, serveEndpoint, type Logger, type Sql } from '@hub/common';
import type { Router } from 'express';
import { memberProjectIds } from '../db/members';
import { applyProjectFacts } from '../db/project-facts';
import type { MembershipService } from '../membership-service';

/** The authorization API every service calls, and the door projects pushes project facts through. */
export function createInternalRoutes(deps: { sql: Sql; membership: MembershipService; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, accessLookup, deps.logger, async ({ userId, projectIds }) => {
    const found = await deps.membership.accessFor(userId, projectIds);
    return { access: projectIds.map((id) => found.get(id) ?? null) };
  });
  serveEndpoint(router, memberProjects, deps.logger, async ({ userId }) => ({ projectIds: await memberProjectIds(deps.sql, userId) }));
  serveEndpoint(router, applyProjectFactsEndpoint, deps.logger, async (facts) => ({ applied: await deps.sql.begin((tx) => applyProjectFacts(tx, facts)) }));
  return router;
}
