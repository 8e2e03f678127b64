import { forbidden, unauthenticated } from './errors';
import type { Principal } from './principal';

/** The acting user's id; 401 for anonymous requests. */
export function requireUser(principal: Principal): number {
  if (principal.userId === null) throw unauthenticated();
  return principal.userId;
}

/** 403 unless the acting user is an admin (GitLab's `authenticated_as_admin!`). */
export function requireAdmin(principal: Principal): number {
  const userId = requireUser(principal);
  if (!principal.isAdmin) throw forbidden();
  return userId;
}
