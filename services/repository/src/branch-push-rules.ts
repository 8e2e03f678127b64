import { can, type Principal, type ProjectAccess } from '@hub/common';

/** A project's protected branches, and those of them Developers may still push to. */
export interface BranchProtection {
  protected: readonly string[];
  developersCanPush: readonly string[];
}

/**
 * GitLab's GitAccess#can_push_to_branch?: push rights suffice for an unprotected branch and for a
 * protected one whose developers_can_push is set; any other protected branch needs Master.
 */
export function mayPushToBranch(
  access: ProjectAccess,
  principal: Principal,
  branch: string,
  protection: BranchProtection,
): boolean {
  if (!can(access, principal, 'push_code')) return false;
  if (!protection.protected.includes(branch) || protection.developersCanPush.includes(branch)) return true;
  return can(access, principal, 'push_code_to_protected_branches');
}
