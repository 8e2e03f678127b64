import type { z } from 'zod';
import type { projectAccess } from './contracts/membership';
import { forbidden, notFound } from './errors';
import type { Principal } from './principal';

/** GitLab's project access levels; the namespace owner is Owner, admins may do anything. */
export const AccessLevel = { NONE: 0, GUEST: 10, REPORTER: 20, DEVELOPER: 30, MASTER: 40, OWNER: 50 } as const;

/** The levels a team member may be given through the API (Owner comes from owning the namespace). */
export const MEMBER_ACCESS_LEVELS: readonly number[] = [
  AccessLevel.GUEST,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MASTER,
];

export const Visibility = { PRIVATE: 0, INTERNAL: 10, PUBLIC: 20 } as const;
export const VISIBILITY_LEVELS: readonly number[] = [Visibility.PRIVATE, Visibility.INTERNAL, Visibility.PUBLIC];

/** GitLab's default notification level for a membership ("global"). */
export const DEFAULT_NOTIFICATION_LEVEL = 3;

/** What membership knows about one project and one user: everything an access decision needs. */
export type ProjectAccess = z.output<typeof projectAccess>;

/** The project abilities of GitLab v3's ability model that this system checks. */
export type Ability =
  | 'read_project'
  | 'read_merge_request'
  | 'download_code'
  | 'fork_project'
  | 'create_issue'
  | 'create_note'
  | 'create_snippet'
  | 'admin_issue'
  | 'update_issue'
  | 'read_milestone'
  | 'admin_label'
  | 'admin_milestone'
  | 'create_merge_request'
  | 'push_code'
  | 'admin_merge_request'
  | 'update_merge_request'
  | 'admin_project'
  | 'admin_note'
  | 'push_code_to_protected_branches'
  | 'rename_project'
  | 'change_visibility_level'
  | 'remove_project';

/** The lowest level that has each ability (GitLab's project_{guest,report,dev,master,admin}_rules). */
const MIN_LEVEL: Record<Ability, number> = {
  read_project: AccessLevel.GUEST,
  read_merge_request: AccessLevel.GUEST,
  create_issue: AccessLevel.GUEST,
  create_note: AccessLevel.GUEST,
  download_code: AccessLevel.REPORTER,
  fork_project: AccessLevel.REPORTER,
  create_snippet: AccessLevel.REPORTER,
  admin_issue: AccessLevel.REPORTER,
  update_issue: AccessLevel.REPORTER,
  read_milestone: AccessLevel.GUEST,
  admin_label: AccessLevel.REPORTER,
  admin_milestone: AccessLevel.MASTER,
  create_merge_request: AccessLevel.DEVELOPER,
  push_code: AccessLevel.DEVELOPER,
  admin_merge_request: AccessLevel.DEVELOPER,
  // GitLab 7.14's modify_merge_request was a Master rule: a Developer changes only their own.
  update_merge_request: AccessLevel.MASTER,
  admin_project: AccessLevel.MASTER,
  admin_note: AccessLevel.MASTER,
  push_code_to_protected_branches: AccessLevel.MASTER,
  rename_project: AccessLevel.OWNER,
  change_visibility_level: AccessLevel.OWNER,
  remove_project: AccessLevel.OWNER,
};

/** What any signed-in user may do on internal and public projects (GitLab's public_project_rules). */
const OPEN_PROJECT_ABILITIES = new Set<Ability>([
  'read_project',
  'read_merge_request',
  'read_milestone',
  'download_code',
  'fork_project',
  'create_issue',
  'create_note',
]);
/** What anybody, signed in or not, may do on public projects (anonymous clone). */
const ANONYMOUS_PUBLIC_ABILITIES = new Set<Ability>(['read_project', 'download_code']);

/** The project's feature switches that take abilities away. */
type Feature = 'issuesEnabled' | 'mergeRequestsEnabled' | 'snippetsEnabled';

/**
 * A disabled feature takes its abilities away even from the owner, as in GitLab. An ability that
 * serves several features stays while any one of them is enabled.
 */
const FEATURE_OF: Partial<Record<Ability, readonly Feature[]>> = {
  create_issue: ['issuesEnabled'],
  admin_issue: ['issuesEnabled'],
  update_issue: ['issuesEnabled'],
  create_snippet: ['snippetsEnabled'],
  // GitLab 7.14 took every merge request ability away, reading included (403 on the list and on one).
  read_merge_request: ['mergeRequestsEnabled'],
  create_merge_request: ['mergeRequestsEnabled'],
  admin_merge_request: ['mergeRequestsEnabled'],
  update_merge_request: ['mergeRequestsEnabled'],
  // Labels and milestones serve issues and merge requests: GitLab took them away only when both are disabled.
  read_milestone: ['issuesEnabled', 'mergeRequestsEnabled'],
  admin_label: ['issuesEnabled', 'mergeRequestsEnabled'],
  admin_milestone: ['issuesEnabled', 'mergeRequestsEnabled'],
};

/**
 * What an archived project no longer allows: GitLab 7.14's project_archived_rules, merge requests
 * and pushes only. Issues, comments and snippets go on (the spec says nothing of archived projects
 * beyond the flag, so GitLab's rules hold).
 */
const ARCHIVED_TAKES = new Set<Ability>([
  'create_merge_request',
  'admin_merge_request',
  'update_merge_request',
  'push_code',
  'push_code_to_protected_branches',
]);

/**
 * The user's level on the project: Owner for the namespace owner, else the higher of the project
 * membership and the group membership (GitLab's max_member_access). A group's Owner is Owner of
 * its projects, as GitLab gave group owners project_admin_rules.
 */
export function accessLevelOf(access: ProjectAccess, principal: Principal): number {
  if (principal.userId === null) return AccessLevel.NONE;
  if (access.ownerId !== null && access.ownerId === principal.userId) return AccessLevel.OWNER;
  return Math.max(access.memberLevel ?? AccessLevel.NONE, access.groupLevel ?? AccessLevel.NONE);
}

export function can(access: ProjectAccess, principal: Principal, ability: Ability): boolean {
  const features = FEATURE_OF[ability];
  if (features && !features.some((feature) => access[feature])) return false;
  if (access.archived && ARCHIVED_TAKES.has(ability)) return false;
  if (principal.isAdmin) return true;
  if (accessLevelOf(access, principal) >= MIN_LEVEL[ability]) return true;
  if (access.visibilityLevel === Visibility.PUBLIC && ANONYMOUS_PUBLIC_ABILITIES.has(ability)) return true;
  return (
    principal.userId !== null && access.visibilityLevel >= Visibility.INTERNAL && OPEN_PROJECT_ABILITIES.has(ability)
  );
}

/**
 * The one authorization check: 404 when the project does not exist or the user may not see it
 * (private projects never reveal themselves), 403 when the user sees it but may not do this.
 */
export function authorize(access: ProjectAccess | null, principal: Principal, ability: Ability): ProjectAccess {
  if (!access || !can(access, principal, 'read_project')) throw notFound('Project');
  if (!can(access, principal, ability)) throw forbidden();
  return access;
}

/**
 * Who may change an issue or a merge request (GitLab 7.14's modify_issue and modify_merge_request):
 * its author and its assignee, whatever their level (the ability model gave them the issuable
 * itself), and anyone else with `ability` on the project. The project must have been found
 * readable first (authorize's 404).
 */
export function authorizeIssuableChange(
  access: ProjectAccess,
  principal: Principal,
  issuable: { authorId: number | null; assigneeId: number | null },
  ability: 'update_issue' | 'update_merge_request',
): void {
  const own =
    principal.userId !== null && (issuable.authorId === principal.userId || issuable.assigneeId === principal.userId);
  if (!own) authorize(access, principal, ability);
}
