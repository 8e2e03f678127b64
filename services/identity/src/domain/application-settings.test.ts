import { settingsColumns, validateSettings, type SettingsChanges } from './application-settings';

const fieldsOf = (input: SettingsChanges) => {
  try {
    validateSettings(input);
    return null;
  } catch (error) {
    return (error as { extensions: { code: string; fields: Record<string, string[]> } }).extensions;
  }
};

describe('application settings validation', () => {
  it.each<[string, SettingsChanges, Record<string, string[]>]>([
    [
      'a negative projects limit',
      { defaultProjectsLimit: -1 },
      { default_projects_limit: ['must be greater than or equal to 0'] },
    ],
    [
      'a negative session delay',
      { sessionExpireDelay: -5 },
      { session_expire_delay: ['must be greater than or equal to 0'] },
    ],
    ['a zero attachment size', { maxAttachmentSize: 0 }, { max_attachment_size: ['must be greater than 0'] }],
    [
      'a branch protection of 3',
      { defaultBranchProtection: 3 },
      { default_branch_protection: ['is not included in the list'] },
    ],
    [
      'a project visibility of 5',
      { defaultProjectVisibility: 5 },
      { default_project_visibility: ['is not included in the list'] },
    ],
    [
      'a snippet visibility of 30',
      { defaultSnippetVisibility: 30 },
      { default_snippet_visibility: ['is not included in the list'] },
    ],
    [
      'unknown restricted levels',
      { restrictedVisibilityLevels: [10, 5, 7] },
      { restricted_visibility_levels: ["'5' is not a valid visibility level", "'7' is not a valid visibility level"] },
    ],
    ['a home page that is no URL', { homePageUrl: 'not a url' }, { home_page_url: ['should be a valid url'] }],
    [
      'an ftp sign-out path',
      { afterSignOutPath: 'ftp://example.com/' },
      { after_sign_out_path: ['should be a valid url'] },
    ],
    [
      'two bad fields at once',
      { maxAttachmentSize: -1, defaultBranchProtection: -1 },
      { max_attachment_size: ['must be greater than 0'], default_branch_protection: ['is not included in the list'] },
    ],
  ])('refuses %s, per field', (_case, input, fields) => {
    expect(fieldsOf(input)).toEqual({ code: 'VALIDATION', fields });
  });

  it.each<[string, SettingsChanges]>([
    ['the limits at their bounds', { defaultProjectsLimit: 0, sessionExpireDelay: 0, maxAttachmentSize: 1 }],
    ['every protection level', { defaultBranchProtection: 1 }],
    [
      'every visibility level',
      { defaultProjectVisibility: 20, defaultSnippetVisibility: 10, restrictedVisibilityLevels: [0, 10, 20] },
    ],
    ['blank URLs (they clear the setting)', { homePageUrl: '', afterSignOutPath: '  ' }],
    ['https URLs', { homePageUrl: 'https://example.com/welcome', afterSignOutPath: 'http://example.com' }],
  ])('accepts %s', (_case, input) => {
    expect(fieldsOf(input)).toBeNull();
  });

  it('writes only what was given; restricted levels as a sorted set, signup domains trimmed', () => {
    expect(
      settingsColumns({
        restrictedVisibilityLevels: [20, 0, 20],
        restrictedSignupDomains: [' example.com ', ''],
        signupEnabled: false,
        signInText: null,
      }),
    ).toEqual({
      restrictedVisibilityLevels: [0, 20],
      restrictedSignupDomains: ['example.com'],
      signupEnabled: false,
    });
  });
});
