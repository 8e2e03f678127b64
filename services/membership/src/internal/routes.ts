import {
  accessLookup,
  applyGroup,
  applyProjectFacts as applyProjectFactsEndpoint,
  groupAccessLookup,
  memberGroups,
  createInternalRouter,
  memberProjects,
  serveEndpoint,
  type Logger,
  type Sql,
} from '@hub/common';
import type { Router } from 'express';
import { memberGroupIds } from '../db/groups';
import { memberProjectIds } from '../db/members';
import type { GroupsService } from '../groups-service';
import { applyProjectFacts } from '../db/project-facts';
import type { MembershipService } from '../membership-service';

/** The authorization API every service calls, and the door projects pushes project facts through. */
export function createInternalRoutes(deps: {
  sql: Sql;
  membership: MembershipService;
  groups: GroupsService;
  secret: string;
  logger: Logger;
}): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, accessLookup, deps.logger, async ({ userId, projectIds }) => {
    const found = await deps.membership.accessFor(userId, projectIds);
    return { access: projectIds.map((id) => found.get(id) ?? null) };
  });
  serveEndpoint(router, memberProjects, deps.logger, async ({ userId }) => ({
    projectIds: await memberProjectIds(deps.sql, userId),
  }));
  serveEndpoint(router, applyProjectFactsEndpoint, deps.logger, async (facts) => ({
    applied: await deps.sql.begin((tx) => applyProjectFacts(tx, facts)),
  }));
  serveEndpoint(router, applyGroup, deps.logger, async (group) => ({ applied: await deps.groups.applyGroup(group) }));
  serveEndpoint(router, groupAccessLookup, deps.logger, async ({ userId, groupIds }) => {
    // Admins are the caller's to decide: this answers for the user as a member and a viewer.
    const access = await deps.groups.accessOf(
      { userId, username: null, isAdmin: false, impersonatorId: null },
      groupIds,
    );
    return { access: access.map(({ groupId, level, readable }) => ({ groupId, level, readable })) };
  });
  serveEndpoint(router, memberGroups, deps.logger, async ({ userId }) => ({
    groupIds: await memberGroupIds(deps.sql, userId),
  }));
  return router;
}
