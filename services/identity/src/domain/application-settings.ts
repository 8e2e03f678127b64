import {
  FieldErrorCollector,
  identityEvents,
  requireAdmin,
  VISIBILITY_LEVELS,
  type Principal,
  type Sql,
} from '@hub/common';
import { currentSettings, updateSettings, type SettingsRow, type SettingsWritable } from '../db/settings';
import type { UpdateApplicationSettingsInput } from '../generated/graphql';

/** The settings to change, as the input gives them but with visibility levels as v3's numbers. */
export type SettingsChanges = Omit<
  UpdateApplicationSettingsInput,
  | 'clientMutationId'
  | 'restrictedVisibilityLevels'
  | 'v3RestrictedVisibilityLevels'
  | 'defaultProjectVisibility'
  | 'v3DefaultProjectVisibility'
  | 'defaultSnippetVisibility'
  | 'v3DefaultSnippetVisibility'
> & {
  restrictedVisibilityLevels?: number[] | null;
  defaultProjectVisibility?: number | null;
  defaultSnippetVisibility?: number | null;
};

const BRANCH_PROTECTION_LEVELS = [0, 1, 2];
// GitLab 7.14's ApplicationSetting URL format: http(s) only.
const URL_MESSAGE = 'should be a valid url';

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/**
 * GitLab's ApplicationSetting validations, in its words, each problem under its field:
 * session_expire_delay and max_attachment_size numericality, the URL formats (blank allowed),
 * and each restricted level a real one. GitLab's admin form offered only the valid choices for
 * the levels and the branch protection and left default_projects_limit unchecked; the API took
 * any value for them, so those are checked here as the form's choices (and the users' own
 * projects_limit rule) allowed.
 */
export function validateSettings(input: SettingsChanges): void {
  const errors = new FieldErrorCollector();
  const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;
  if (given(input.defaultProjectsLimit) && input.defaultProjectsLimit < 0)
    errors.add('default_projects_limit', 'must be greater than or equal to 0');
  if (given(input.sessionExpireDelay) && input.sessionExpireDelay < 0)
    errors.add('session_expire_delay', 'must be greater than or equal to 0');
  if (given(input.maxAttachmentSize) && input.maxAttachmentSize <= 0)
    errors.add('max_attachment_size', 'must be greater than 0');
  if (given(input.defaultBranchProtection) && !BRANCH_PROTECTION_LEVELS.includes(input.defaultBranchProtection)) {
    errors.add('default_branch_protection', 'is not included in the list');
  }
  if (given(input.defaultProjectVisibility) && !VISIBILITY_LEVELS.includes(input.defaultProjectVisibility)) {
    errors.add('default_project_visibility', 'is not included in the list');
  }
  if (given(input.defaultSnippetVisibility) && !VISIBILITY_LEVELS.includes(input.defaultSnippetVisibility)) {
    errors.add('default_snippet_visibility', 'is not included in the list');
  }
  for (const level of input.restrictedVisibilityLevels ?? []) {
    if (!VISIBILITY_LEVELS.includes(level))
      errors.add('restricted_visibility_levels', `'${level}' is not a valid visibility level`);
  }
  if (given(input.homePageUrl) && input.homePageUrl.trim() !== '' && !isHttpUrl(input.homePageUrl.trim()))
    errors.add('home_page_url', URL_MESSAGE);
  if (
    given(input.afterSignOutPath) &&
    input.afterSignOutPath.trim() !== '' &&
    !isHttpUrl(input.afterSignOutPath.trim())
  ) {
    errors.add('after_sign_out_path', URL_MESSAGE);
  }
  errors.throwIfAny();
}

/** The columns to write for the settings given (null and absent leave a setting as it is). */
export function settingsColumns(input: SettingsChanges): SettingsWritable {
  const columns: SettingsWritable = {};
  const copy = <K extends keyof SettingsWritable>(key: K, value: SettingsWritable[K] | null | undefined) => {
    if (value !== undefined && value !== null) columns[key] = value;
  };
  copy('defaultProjectsLimit', input.defaultProjectsLimit);
  copy('signupEnabled', input.signupEnabled);
  copy('signinEnabled', input.signinEnabled);
  copy('gravatarEnabled', input.gravatarEnabled);
  copy('signInText', input.signInText);
  copy('homePageUrl', input.homePageUrl?.trim());
  copy('afterSignOutPath', input.afterSignOutPath?.trim());
  copy('defaultBranchProtection', input.defaultBranchProtection);
  copy('twitterSharingEnabled', input.twitterSharingEnabled);
  // A set of levels, kept in order: the same levels sent twice are one restriction.
  copy(
    'restrictedVisibilityLevels',
    input.restrictedVisibilityLevels && [...new Set(input.restrictedVisibilityLevels)].sort((a, b) => a - b),
  );
  copy('maxAttachmentSize', input.maxAttachmentSize);
  copy('sessionExpireDelay', input.sessionExpireDelay);
  copy('defaultProjectVisibility', input.defaultProjectVisibility);
  copy('defaultSnippetVisibility', input.defaultSnippetVisibility);
  // GitLab's restricted_signup_domains_raw: trimmed, blanks dropped.
  copy(
    'restrictedSignupDomains',
    input.restrictedSignupDomains?.map((d) => d.trim()).filter((d) => d !== ''),
  );
  copy('userOauthApplications', input.userOauthApplications);
  return columns;
}

/** Reading and changing the settings row (admins only); a change tells every service through its event. */
export function createApplicationSettings(deps: { sql: Sql }) {
  const { sql } = deps;
  return {
    async read(principal: Principal): Promise<SettingsRow> {
      requireAdmin(principal);
      return currentSettings(sql);
    },

    /** For services that apply the settings (the internal endpoint): no principal. */
    current: (): Promise<SettingsRow> => currentSettings(sql),

    async update(principal: Principal, input: SettingsChanges): Promise<SettingsRow> {
      requireAdmin(principal);
      validateSettings(input);
      const columns = settingsColumns(input);
      return sql.begin(async (tx) => {
        const row = await updateSettings(tx, columns);
        if (Object.keys(columns).length > 0) {
          await identityEvents.record(tx, 'settings.updated', {
            actor_id: principal.userId,
            actor_username: principal.username,
            updated_at: row.updatedAt.toISOString(),
          });
        }
        return row;
      });
    },
  };
}

export type ApplicationSettingsService = ReturnType<typeof createApplicationSettings>;
