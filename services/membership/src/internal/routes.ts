import {
  ACCESS_PATH,
  createInternalRouter,
  internalHandler,
  MEMBER_PROJECTS_PATH,
  type AccessResponse,
  type Logger,
  type MemberProjectsResponse,
  type ProjectFacts,
  type Sql,
} from '@hub/common';
import type { Router } from 'express';
import { memberProjectIds } from '../db/members';
import { applyProjectFacts } from '../db/project-facts';
import type { MembershipService } from '../membership-service';

const MAX_IDS = 1000;
const positiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0 && (v as number) < 2 ** 31;

/** The authorization API every service calls, and the door projects pushes project facts through. */
export function createInternalRoutes(deps: { sql: Sql; membership: MembershipService; secret: string; logger: Logger }): Router {
  const router = createInternalRouter(deps.secret);

  router.post(
    ACCESS_PATH,
    internalHandler(deps.logger, async (body): Promise<AccessResponse> => {
      const userId = positiveInt(body.userId) ? body.userId : null;
      const ids = Array.isArray(body.projectIds) ? body.projectIds.slice(0, MAX_IDS) : [];
      const found = await deps.membership.accessFor(userId, ids.filter(positiveInt));
      return { access: ids.map((id) => (positiveInt(id) ? (found.get(id) ?? null) : null)) };
    }),
  );

  router.post(
    MEMBER_PROJECTS_PATH,
    internalHandler(deps.logger, async (body): Promise<MemberProjectsResponse> => ({
      projectIds: positiveInt(body.userId) ? await memberProjectIds(deps.sql, body.userId) : [],
    })),
  );

  router.put(
    '/internal/projects/:id',
    internalHandler(deps.logger, async (body, req) => {
      const facts = body as unknown as ProjectFacts;
      if (!positiveInt(facts.projectId) || String(facts.projectId) !== req.params.id || !positiveInt(facts.version)) {
        throw new Error('malformed project facts');
      }
      const applied = await deps.sql.begin((tx) => applyProjectFacts(tx, facts));
      return { applied };
    }),
  );
  return router;
}
