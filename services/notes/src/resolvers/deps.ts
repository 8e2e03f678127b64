import type { Cursors, Sql } from '@hub/common';
import type { NotesService } from '../notes-service';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  notes: NotesService;
  /** Signs and reads the public schema's list cursors. */
  cursors: Cursors;
}
