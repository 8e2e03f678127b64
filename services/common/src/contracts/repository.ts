// The contract of services/repository: the events it emits and its internal endpoints. Owned by repository.
import { z } from 'zod';
import { defineEvents, endpoint, payload } from './define';
import { pushedCommit } from './git-worker';
import { actor, id } from './shared';

/** A branch protected or unprotected by hand: the project's branches show it (no hook sends it). */
const branchProtection = payload({
  project_id: id,
  ...actor,
  branch: z.string(),
  developers_can_push: z.boolean(),
});

export const repositoryEvents = defineEvents('repository', {
  'branch.protected': branchProtection,
  'branch.unprotected': branchProtection,
});

/**
 * A project's protected branch names (merge requests: may this user merge into the target?), and
 * those of them Developers may push to as well (developers_can_push).
 */
export const protectedBranches = endpoint(
  '/internal/protected-branches',
  z.object({ projectId: id }),
  z.object({ names: z.array(z.string()), developersCanPush: z.array(z.string()).default([]) }),
);

/**
 * The commit a ref (a sha, branch or tag) names in a project's repository, as push events show
 * commits; null when it names none (notes: may a comment be made on it, and what is its full id?).
 */
export const commitFind = endpoint(
  '/internal/commits/find',
  z.object({ projectId: id, ref: z.string().min(1).max(1024) }),
  z.object({ commit: pushedCommit.nullable() }),
);
