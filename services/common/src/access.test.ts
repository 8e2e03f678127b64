import {
  AccessLevel,
  authorize,
  authorizeIssuableChange,
  can,
  Visibility,
  type Ability,
  type ProjectAccess,
} from './access';
import { ErrorCode } from './errors';
import type { Principal } from './principal';

const OWNER_ID = 1;
const facts = (overrides: Partial<ProjectAccess> = {}): ProjectAccess => ({
  projectId: 7,
  visibilityLevel: Visibility.PRIVATE,
  ownerId: OWNER_ID,
  memberLevel: null,
  groupLevel: null,
  notificationLevel: null,
  archived: false,
  issuesEnabled: true,
  mergeRequestsEnabled: true,
  snippetsEnabled: true,
  wikiEnabled: true,
  ...overrides,
});
const user = (userId: number | null, isAdmin = false): Principal => ({
  userId,
  username: userId ? `u${userId}` : null,
  isAdmin,
  impersonatorId: null,
});

describe('can', () => {
  const member = (level: number) => [facts({ memberLevel: level }), user(2)] as const;
  it.each<[string, readonly [ProjectAccess, Principal], Ability, boolean]>([
    ['guest reads', member(AccessLevel.GUEST), 'read_project', true],
    ['guest cannot download code', member(AccessLevel.GUEST), 'download_code', false],
    ['reporter downloads code', member(AccessLevel.REPORTER), 'download_code', true],
    ['reporter cannot open a merge request', member(AccessLevel.REPORTER), 'create_merge_request', false],
    ['developer opens merge requests', member(AccessLevel.DEVELOPER), 'create_merge_request', true],
    ['developer cannot administer', member(AccessLevel.DEVELOPER), 'admin_project', false],
    ['master administers', member(AccessLevel.MASTER), 'admin_project', true],
    ['master pushes to protected branches', member(AccessLevel.MASTER), 'push_code_to_protected_branches', true],
    ['master cannot remove the project', member(AccessLevel.MASTER), 'remove_project', false],
    ['master cannot change visibility', member(AccessLevel.MASTER), 'change_visibility_level', false],
    ['namespace owner removes', [facts(), user(OWNER_ID)], 'remove_project', true],
    ['admin removes', [facts(), user(99, true)], 'remove_project', true],
    ['stranger cannot read a private project', [facts(), user(3)], 'read_project', false],
    [
      'stranger reads an internal project',
      [facts({ visibilityLevel: Visibility.INTERNAL }), user(3)],
      'read_project',
      true,
    ],
    [
      'stranger forks an internal project',
      [facts({ visibilityLevel: Visibility.INTERNAL }), user(3)],
      'fork_project',
      true,
    ],
    [
      'stranger cannot push to a public project',
      [facts({ visibilityLevel: Visibility.PUBLIC }), user(3)],
      'push_code',
      false,
    ],
    [
      'anonymous cannot read an internal project',
      [facts({ visibilityLevel: Visibility.INTERNAL }), user(null)],
      'read_project',
      false,
    ],
    [
      'anonymous downloads a public project',
      [facts({ visibilityLevel: Visibility.PUBLIC }), user(null)],
      'download_code',
      true,
    ],
    [
      'anonymous cannot comment on a public project',
      [facts({ visibilityLevel: Visibility.PUBLIC }), user(null)],
      'create_note',
      false,
    ],
    [
      'disabled merge requests stop even the owner',
      [facts({ mergeRequestsEnabled: false }), user(OWNER_ID)],
      'create_merge_request',
      false,
    ],
    [
      'disabled merge requests cannot even be read',
      [facts({ mergeRequestsEnabled: false }), user(OWNER_ID)],
      'read_merge_request',
      false,
    ],
    ['a guest reads merge requests', member(AccessLevel.GUEST), 'read_merge_request', true],
    [
      'a stranger reads the merge requests of an internal project',
      [facts({ visibilityLevel: Visibility.INTERNAL }), user(3)],
      'read_merge_request',
      true,
    ],
    ['archived projects take no pushes', [facts({ archived: true }), user(OWNER_ID)], 'push_code', false],
    [
      'archived projects stay readable',
      [facts({ archived: true, memberLevel: AccessLevel.GUEST }), user(2)],
      'read_project',
      true,
    ],
    // GitLab 7.14's project_archived_rules take merge requests and pushes only.
    [
      'archived projects take no new merge requests',
      [facts({ archived: true }), user(OWNER_ID)],
      'create_merge_request',
      false,
    ],
    [
      'archived projects take no merge request administration',
      [facts({ archived: true }), user(OWNER_ID)],
      'admin_merge_request',
      false,
    ],
    [
      'archived projects still take issues',
      [facts({ archived: true, memberLevel: AccessLevel.GUEST }), user(2)],
      'create_issue',
      true,
    ],
    [
      'archived projects still take comments',
      [facts({ archived: true, memberLevel: AccessLevel.GUEST }), user(2)],
      'create_note',
      true,
    ],
    [
      "a group developer pushes to the group's project",
      [facts({ ownerId: null, groupLevel: AccessLevel.DEVELOPER }), user(2)],
      'push_code',
      true,
    ],
    [
      'a group reporter cannot push',
      [facts({ ownerId: null, groupLevel: AccessLevel.REPORTER }), user(2)],
      'push_code',
      false,
    ],
    [
      'the higher of project and group level counts',
      [facts({ ownerId: null, memberLevel: AccessLevel.GUEST, groupLevel: AccessLevel.MASTER }), user(2)],
      'admin_project',
      true,
    ],
    [
      "a group owner removes the group's project",
      [facts({ ownerId: null, groupLevel: AccessLevel.OWNER }), user(2)],
      'remove_project',
      true,
    ],
    [
      "a group master cannot remove the group's project",
      [facts({ ownerId: null, groupLevel: AccessLevel.MASTER }), user(2)],
      'remove_project',
      false,
    ],
    [
      'archived projects still take snippets',
      [facts({ archived: true, snippetsEnabled: true, memberLevel: AccessLevel.REPORTER }), user(2)],
      'create_snippet',
      true,
    ],
    // Labels and milestones (GitLab 7.14's ability.rb): admin_label for Reporters, admin_milestone for Masters.
    ['a guest reads milestones', member(AccessLevel.GUEST), 'read_milestone', true],
    [
      'a stranger reads the milestones of an internal project',
      [facts({ visibilityLevel: Visibility.INTERNAL }), user(3)],
      'read_milestone',
      true,
    ],
    ['a guest cannot manage labels', member(AccessLevel.GUEST), 'admin_label', false],
    ['a reporter manages labels', member(AccessLevel.REPORTER), 'admin_label', true],
    ['a developer cannot manage milestones', member(AccessLevel.DEVELOPER), 'admin_milestone', false],
    ['a master manages milestones', member(AccessLevel.MASTER), 'admin_milestone', true],
    [
      'labels stay with merge requests when issues are off',
      [facts({ issuesEnabled: false }), user(OWNER_ID)],
      'admin_label',
      true,
    ],
    [
      'milestones go when issues and merge requests are both off',
      [facts({ issuesEnabled: false, mergeRequestsEnabled: false }), user(OWNER_ID)],
      'read_milestone',
      false,
    ],
    [
      'milestones stay with issues when merge requests are off',
      [facts({ mergeRequestsEnabled: false }), user(OWNER_ID)],
      'admin_milestone',
      true,
    ],
    [
      'labels go when issues and merge requests are both off, even for an admin',
      [facts({ issuesEnabled: false, mergeRequestsEnabled: false }), user(99, true)],
      'admin_label',
      false,
    ],
    [
      'milestone administration goes when both are off',
      [facts({ issuesEnabled: false, mergeRequestsEnabled: false }), user(OWNER_ID)],
      'admin_milestone',
      false,
    ],
    [
      'disabled issues take issue administration away',
      [facts({ issuesEnabled: false }), user(OWNER_ID)],
      'admin_issue',
      false,
    ],
    [
      'disabled snippets take snippets away',
      [facts({ snippetsEnabled: false }), user(OWNER_ID)],
      'create_snippet',
      false,
    ],
  ])('%s', (_name, [access, principal], ability, expected) => {
    expect(can(access, principal, ability)).toBe(expected);
  });
});

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { extensions: { code: string } }).extensions.code;
  }
};

describe('authorize', () => {
  it('hides a private project from strangers as 404', () => {
    expect(codeOf(() => authorize(facts(), user(3), 'admin_project'))).toBe(ErrorCode.NOT_FOUND);
  });
  it('answers 403 to a member without the ability', () => {
    expect(codeOf(() => authorize(facts({ memberLevel: AccessLevel.GUEST }), user(2), 'admin_project'))).toBe(
      ErrorCode.FORBIDDEN,
    );
  });
  it('answers 404 for a project that does not exist', () => {
    expect(codeOf(() => authorize(null, user(2, true), 'read_project'))).toBe(ErrorCode.NOT_FOUND);
  });
  it('lets the owner through', () => {
    expect(codeOf(() => authorize(facts(), user(OWNER_ID), 'remove_project'))).toBe('ok');
  });
});

describe('authorizeIssuableChange', () => {
  const AUTHOR = 2;
  const ASSIGNEE = 3;
  const OTHER = 4;
  const issuable = { authorId: AUTHOR, assigneeId: ASSIGNEE };
  const as = (userId: number, level: number | null, isAdmin = false) =>
    [facts({ memberLevel: level }), user(userId, isAdmin)] as const;
  // GitLab 7.14's modify_merge_request: the author, the assignee, Master and up (admins too).
  it.each<[string, readonly [ProjectAccess, Principal], 'update_issue' | 'update_merge_request', string]>([
    ['the author changes their merge request', as(AUTHOR, AccessLevel.DEVELOPER), 'update_merge_request', 'ok'],
    ['the assignee changes it, even as a Guest', as(ASSIGNEE, AccessLevel.GUEST), 'update_merge_request', 'ok'],
    [
      "another Developer may not change someone else's merge request",
      as(OTHER, AccessLevel.DEVELOPER),
      'update_merge_request',
      ErrorCode.FORBIDDEN,
    ],
    ['a Master changes any merge request', as(OTHER, AccessLevel.MASTER), 'update_merge_request', 'ok'],
    ['the namespace owner changes any merge request', as(OWNER_ID, null), 'update_merge_request', 'ok'],
    ['an admin changes any merge request', as(99, null, true), 'update_merge_request', 'ok'],
    ['the assignee changes an issue, even as a Guest', as(ASSIGNEE, AccessLevel.GUEST), 'update_issue', 'ok'],
    ["a Guest may not change someone else's issue", as(OTHER, AccessLevel.GUEST), 'update_issue', ErrorCode.FORBIDDEN],
    ["a Reporter changes someone else's issue", as(OTHER, AccessLevel.REPORTER), 'update_issue', 'ok'],
  ])('%s', (_name, [access, principal], ability, expected) => {
    expect(codeOf(() => authorizeIssuableChange(access, principal, issuable, ability))).toBe(expected);
  });
});
