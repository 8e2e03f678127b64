import { AccessLevel, Visibility, type Principal, type ProjectAccess } from '@hub/common';
import { mayPushToBranch } from './branch-push-rules';

const principal: Principal = { userId: 2, username: 'dev', isAdmin: false, impersonatorId: null };
const accessAs = (memberLevel: number | null): ProjectAccess => ({
  projectId: 1,
  visibilityLevel: Visibility.PRIVATE,
  ownerId: 1,
  memberLevel,
  groupLevel: null,
  notificationLevel: null,
  archived: false,
  issuesEnabled: true,
  mergeRequestsEnabled: true,
  snippetsEnabled: false,
  wikiEnabled: true,
});
const protection = { protected: ['master', 'release'], developersCanPush: ['release'] };

describe("GitLab's can_push_to_branch?", () => {
  it.each([
    ['a Developer, an unprotected branch', AccessLevel.DEVELOPER, 'feature', true],
    ['a Developer, a protected branch', AccessLevel.DEVELOPER, 'master', false],
    ['a Developer, a protected branch developers may push to', AccessLevel.DEVELOPER, 'release', true],
    ['a Master, a protected branch', AccessLevel.MASTER, 'master', true],
    ['a Reporter, a branch developers may push to', AccessLevel.REPORTER, 'release', false],
    ['a Reporter, an unprotected branch', AccessLevel.REPORTER, 'feature', false],
  ])('%s', (_case, level, branch, allowed) => {
    expect(mayPushToBranch(accessAs(level), principal, branch, protection)).toBe(allowed);
  });
});
