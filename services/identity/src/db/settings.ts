import type { Sql, TransactionSql } from '@hub/common';

/** The one row of identity.application_settings, camelCased (the graph's ApplicationSettings fields). */
export interface SettingsRow {
  id: number;
  defaultProjectsLimit: number;
  signupEnabled: boolean;
  signinEnabled: boolean;
  gravatarEnabled: boolean;
  signInText: string | null;
  homePageUrl: string | null;
  afterSignOutPath: string | null;
  defaultBranchProtection: number;
  twitterSharingEnabled: boolean;
  restrictedVisibilityLevels: number[];
  maxAttachmentSize: number;
  sessionExpireDelay: number;
  defaultProjectVisibility: number;
  defaultSnippetVisibility: number;
  restrictedSignupDomains: string[];
  userOauthApplications: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Columns an update may set. */
export type SettingsWritable = Partial<Omit<SettingsRow, 'id' | 'createdAt' | 'updatedAt'>>;

type Db = Sql | TransactionSql;

// The migration inserts the row; `on conflict` brings it back should it ever be deleted, as
// GitLab's `current || create_from_defaults` did.
export async function currentSettings(sql: Db): Promise<SettingsRow> {
  const [row] = await sql<SettingsRow[]>`select * from application_settings where id = 1`;
  if (row) return row;
  const [created] = await sql<SettingsRow[]>`
    insert into application_settings (id) values (1) on conflict (id) do update set id = excluded.id returning *`;
  return created!;
}

export async function updateSettings(tx: TransactionSql, values: SettingsWritable): Promise<SettingsRow> {
  const current = await currentSettings(tx);
  if (Object.keys(values).length === 0) return current;
  const [row] = await tx<SettingsRow[]>`
    update application_settings set ${tx(values as Record<string, unknown>)}, updated_at = now() where id = 1 returning *`;
  return row!;
}

/** What a new user's projects_limit is when none is given. */
export async function defaultProjectsLimit(sql: Db): Promise<number> {
  return (await currentSettings(sql)).defaultProjectsLimit;
}
