import type { Sql } from '@hub/common';
import type { IdentityService } from '../identity-service';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  identity: IdentityService;
  externalUrl: string;
}
