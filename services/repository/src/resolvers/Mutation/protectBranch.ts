import { authorize, notFound } from '@hub/common';
import { protect, unprotect } from '../../db/protected-branches';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

/** Both need Master; both are idempotent; a branch that does not exist is 404 (GitLab's messages). */
export const protectBranch =
  ({ sql, git }: ResolverDeps): MutationResolvers['protectBranch'] =>
  async (_parent, { projectId, branch }, { principal, loaders }) => {
    authorize(await loaders.access.load(projectId), principal, 'admin_project');
    const found = await git.findBranch(projectId, branch);
    if (!found) throw notFound('Branch');
    await protect(sql, projectId, found.name);
    loaders.protectedBranches.clear(projectId);
    return { projectId, name: found.name, commit: found.commit! };
  };

export const unprotectBranch =
  ({ sql, git }: ResolverDeps): MutationResolvers['unprotectBranch'] =>
  async (_parent, { projectId, branch }, { principal, loaders }) => {
    authorize(await loaders.access.load(projectId), principal, 'admin_project');
    const found = await git.findBranch(projectId, branch);
    if (!found) throw notFound('Branch does not exist');
    await unprotect(sql, projectId, found.name);
    loaders.protectedBranches.clear(projectId);
    return { projectId, name: found.name, commit: found.commit! };
  };
