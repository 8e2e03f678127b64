import type { Cursors, InternalClient, Sql } from '@hub/common';
import type { ProjectsService } from '../projects-service';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  projects: ProjectsService;
  membership: InternalClient;
  externalUrl: string;
  /** Signs and reads the public schema's list cursors. */
  cursors: Cursors;
}
