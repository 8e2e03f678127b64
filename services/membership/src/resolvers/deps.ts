import type { Cursors, Sql } from '@hub/common';
import type { GroupsService } from '../groups-service';
import type { MembershipService } from '../membership-service';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  membership: MembershipService;
  groups: GroupsService;
  /** Signs and reads the public schema's list cursors. */
  cursors: Cursors;
}
