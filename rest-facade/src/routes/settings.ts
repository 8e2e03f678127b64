import type { FieldErrors } from '@hub/common';
import { applicationSettingSchema, presentApplicationSetting } from '../entities/application-setting';
import { bool, int, list, str } from '../param-docs';
import {
  ApplicationSettingsDocument,
  UpdateApplicationSettingsDocument,
  type UpdateApplicationSettingsInput,
} from '../generated/operations';
import { payloadEntity } from '../gateway-client';
import type { Params } from '../params';
import type { Route } from '../route';
import { v3Error } from '../v3-errors';

/** Visibility levels go as v3's numbers (the internal v3 fields): identity refuses one that is no level in GitLab's words. */
const INTEGERS = {
  default_projects_limit: 'defaultProjectsLimit',
  default_branch_protection: 'defaultBranchProtection',
  max_attachment_size: 'maxAttachmentSize',
  session_expire_delay: 'sessionExpireDelay',
  default_project_visibility: 'v3DefaultProjectVisibility',
  default_snippet_visibility: 'v3DefaultSnippetVisibility',
} as const;
const BOOLEANS = {
  signup_enabled: 'signupEnabled',
  signin_enabled: 'signinEnabled',
  gravatar_enabled: 'gravatarEnabled',
  twitter_sharing_enabled: 'twitterSharingEnabled',
  user_oauth_applications: 'userOauthApplications',
} as const;
/** Text settings; sent empty, they are cleared. */
const TEXTS = {
  sign_in_text: 'signInText',
  home_page_url: 'homePageUrl',
  after_sign_out_path: 'afterSignOutPath',
} as const;

/** What settingsInput reads. */
const SETTINGS_PARAMS = {
  ...Object.fromEntries(Object.keys(INTEGERS).map((name) => [name, int()])),
  ...Object.fromEntries(Object.keys(BOOLEANS).map((name) => [name, bool()])),
  ...Object.fromEntries(Object.keys(TEXTS).map((name) => [name, str('Empty clears it.')])),
  restricted_visibility_levels: list('Visibility levels (0, 10, 20) only admins may give projects and snippets.'),
  restricted_signup_domains: list('Domains, also as one value separated by commas, semicolons or blanks.'),
};

const INTEGER = /^-?\d+$/;
const MAX_INT32 = 2 ** 31 - 1;
/** A level as the graph's Int can carry it; any other is no visibility level, in GitLab's words. */
const isLevelNumber = (text: string) => INTEGER.test(text) && Math.abs(Number(text)) <= MAX_INT32;

/**
 * The settings PUT sends, as GraphQL input, and the problems with their shapes (GitLab 8.x took
 * every column of the row, `id` and the timestamps aside). Values of the right shape are checked
 * by identity, in GitLab's words.
 */
function settingsInput(p: Params): { input: UpdateApplicationSettingsInput; problems: FieldErrors } {
  const input: Record<string, unknown> = {};
  const problems: FieldErrors = {};
  const attempt = (name: string, message: string, read: () => unknown, field: string) => {
    try {
      const value = read();
      if (value !== undefined) input[field] = value;
    } catch {
      (problems[name] ??= []).push(message);
    }
  };
  for (const [name, field] of Object.entries(INTEGERS)) attempt(name, 'is not a number', () => p.int(name), field);
  for (const [name, field] of Object.entries(BOOLEANS)) attempt(name, 'is invalid', () => p.bool(name), field);
  for (const [name, field] of Object.entries(TEXTS))
    attempt(name, 'is invalid', () => (p.sentEmpty(name) ? '' : p.string(name)), field);

  attempt(
    'restricted_visibility_levels',
    'is invalid',
    () => {
      const levels = p.list('restricted_visibility_levels');
      if (levels === undefined) return undefined;
      const bad = levels.filter((level) => !isLevelNumber(level.trim()));
      // ApplicationSetting's own words for a level it does not know.
      for (const level of bad)
        (problems.restricted_visibility_levels ??= []).push(`'${level}' is not a valid visibility level`);
      return bad.length ? undefined : levels.map((level) => Number(level.trim()));
    },
    'v3RestrictedVisibilityLevels',
  );
  // GitLab's restricted_signup_domains_raw rule: commas, semicolons or whitespace separate domains.
  attempt(
    'restricted_signup_domains',
    'is invalid',
    () =>
      p
        .list('restricted_signup_domains')
        ?.flatMap((item) => item.split(/[\s,;]+/))
        .filter((d) => d !== ''),
    'restrictedSignupDomains',
  );
  return { input: input as UpdateApplicationSettingsInput, problems };
}

/**
 * GitLab 8.x's lib/api/settings.rb (v3): the one row of instance settings, admins only
 * (authenticated_as_admin!: 401 without credentials, 403 for others). Invalid values answer
 * render_validation_error!'s 400 with messages per field.
 *
 * Where the settings take effect: default_projects_limit (identity, new users),
 * default_project_visibility and restricted_visibility_levels (projects; snippets too),
 * default_branch_protection (repository, the first push). signup_enabled, signin_enabled,
 * home_page_url, after_sign_out_path, sign_in_text, session_expire_delay, twitter_sharing_enabled
 * and user_oauth_applications governed GitLab's web UI only: its API (POST /session, admin
 * POST /users) never read them, so they are stored and shown, nothing more.
 */
export const settingsRoutes: Route[] = [
  {
    method: 'get',
    path: '/application/settings',
    summary: "The instance's settings (admins only)",
    response: (g) => applicationSettingSchema(g.select(ApplicationSettingsDocument, 'applicationSettings')),
    handle: async (_p, gateway) => {
      const { applicationSettings } = await gateway(ApplicationSettingsDocument, {});
      return { body: presentApplicationSetting(applicationSettings) };
    },
  },
  {
    method: 'put',
    path: '/application/settings',
    summary: "Changes the instance's settings (admins only)",
    params: SETTINGS_PARAMS,
    response: (g) =>
      applicationSettingSchema(
        g.select(UpdateApplicationSettingsDocument, 'updateApplicationSettings.applicationSettings'),
      ),
    handle: async (p, gateway) => {
      const { input, problems } = settingsInput(p);
      if (Object.keys(problems).length > 0) {
        // GitLab checked the caller before any value: a non-admin hears 403 whatever they sent.
        await gateway(ApplicationSettingsDocument, {});
        throw v3Error(400, problems);
      }
      const { updateApplicationSettings } = await gateway(UpdateApplicationSettingsDocument, { input });
      return { body: presentApplicationSetting(payloadEntity(updateApplicationSettings.applicationSettings)) };
    },
  },
];
