import type { Cursors, Sql } from '@hub/common';
import type { GitShards } from '@hub/protos';
import type { MergeRequestsService } from '../merge-requests-service';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  mergeRequests: MergeRequestsService;
  git: GitShards;
  /** Signs and reads the public schema's list cursors. */
  cursors: Cursors;
}
