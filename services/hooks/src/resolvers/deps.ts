import type { Cursors, Sql } from '@hub/common';
import type { HooksService } from '../hooks-service';
import type { SystemHooksService } from '../system-hooks-service';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  hooks: HooksService;
  systemHooks: SystemHooksService;
  /** Signs and reads the public schema's list cursors. */
  cursors: Cursors;
}
