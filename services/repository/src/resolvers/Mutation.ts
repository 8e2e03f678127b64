import { authorize, notFound } from '@hub/common';
import { protect, unprotect } from '../db/protected-branches';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Developer and above; annotated with a message, lightweight without one. */
const createTag =
  ({ git }: ResolverDeps): MutationResolvers['createTag'] =>
  async (_parent, { projectId, tagName, ref, message }, { principal, loaders }) => {
    authorize(await loaders.access.load(projectId), principal, 'push_code');
    const tag = await git.createTag(projectId, tagName, ref, message ?? '', { name: principal.username ?? 'Hub', email: '' });
    return { name: tag.name, message: tag.annotated ? tag.message : null, commit: tag.commit! };
  };

/** Both need Master; both are idempotent; a branch that does not exist is 404 (GitLab's messages). */
const protectBranch =
  ({ sql, git }: ResolverDeps): MutationResolvers['protectBranch'] =>
  async (_parent, { projectId, branch }, { principal, loaders }) => {
    authorize(await loaders.access.load(projectId), principal, 'admin_project');
    const found = await git.findBranch(projectId, branch);
    if (!found) throw notFound('Branch');
    await protect(sql, projectId, found.name);
    loaders.protectedBranches.clear(projectId);
    return { projectId, name: found.name, commit: found.commit! };
  };

const unprotectBranch =
  ({ sql, git }: ResolverDeps): MutationResolvers['unprotectBranch'] =>
  async (_parent, { projectId, branch }, { principal, loaders }) => {
    authorize(await loaders.access.load(projectId), principal, 'admin_project');
    const found = await git.findBranch(projectId, branch);
    if (!found) throw notFound('Branch does not exist');
    await unprotect(sql, projectId, found.name);
    loaders.protectedBranches.clear(projectId);
    return { projectId, name: found.name, commit: found.commit! };
  };

/** Every mutation of this subgraph, made from the same dependencies. */
export const createMutationResolvers = (deps: ResolverDeps): MutationResolvers => ({
  protectBranch: protectBranch(deps),
  unprotectBranch: unprotectBranch(deps),
  createTag: createTag(deps),
});
