import type { Cursors, Sql } from '@hub/common';
import type { ApplicationSettingsService } from '../domain/application-settings';
import type { GroupsService } from '../groups-service';
import type { IdentityService } from '../identity-service';
import type { KeysService } from '../keys-service';

/** What resolvers are built from; passed in by main.ts, never imported as singletons. */
export interface ResolverDeps {
  sql: Sql;
  identity: IdentityService;
  keys: KeysService;
  groups: GroupsService;
  settings: ApplicationSettingsService;
  externalUrl: string;
  /** Signs and reads the public schema's list cursors. */
  cursors: Cursors;
}
