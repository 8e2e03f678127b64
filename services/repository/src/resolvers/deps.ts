import type { Cursors, InternalClient, Sql } from '@hub/common';
import type { Git } from '../git';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  git: Git;
  /** Identity's lookups: a commit's author name and email. */
  identity: InternalClient;
  /** Signs and reads the cursors of the repository's lists. */
  cursors: Cursors;
}
