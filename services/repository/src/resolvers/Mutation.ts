import {
  authorize,
  DomainError,
  ErrorCode,
  methodNotAllowed,
  mutationPayload,
  notFound,
  usersLookup,
  type Principal,
} from '@hub/common';
import { mayPushToBranch } from '../branch-push-rules';
import { decodeContent, fileCommitRefusal, fileNameRefusal, protectedBranchRefusal } from '../file-commits';
import { protect, unprotect } from '../db/protected-branches';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Developer and above; annotated with a message, lightweight without one. */
const createTag =
  ({ git }: ResolverDeps): MutationResolvers['createTag'] =>
  async (_parent, { input: { clientMutationId, projectId, tagName, ref, message } }, { principal, loaders }, info) => {
    authorize(await loaders.access.load(projectId), principal, 'push_code');
    return mutationPayload('tag', { clientMutationId }, info, async () => {
      const tag = await git.createTag(
        projectId,
        tagName,
        ref,
        message ?? '',
        { name: principal.username ?? 'Hub', email: '' },
        pusherOf(principal),
      );
      return { name: tag.name, message: tag.annotated ? tag.message : null, commit: tag.commit! };
    });
  };

/** A 404 in the words GitLab's service chose (not "404 … Not Found"). */
const notFoundAs = (message: string) => new DomainError(ErrorCode.NOT_FOUND, message);

/** Who a ref change made through the API is recorded as. */
const pusherOf = (principal: Principal) => ({ userId: principal.userId ?? 0, username: principal.username ?? '' });

/** GitLab 7.14's branches API: Developers create branches from a ref. */
const createBranch =
  ({ git }: ResolverDeps): MutationResolvers['createBranch'] =>
  async (_parent, { input: { clientMutationId, projectId, name, ref } }, { principal, loaders }, info) => {
    authorize(await loaders.access.load(projectId), principal, 'push_code');
    return mutationPayload('branch', { clientMutationId }, info, async () => {
      const branch = await git.createBranch(projectId, name, ref, pusherOf(principal));
      return { projectId, name: branch.name, commit: branch.commit! };
    });
  };

/** GitLab 7.14's DeleteBranchService: not the branch HEAD names, not a protected one. */
const deleteBranch =
  ({ git }: ResolverDeps): MutationResolvers['deleteBranch'] =>
  async (_parent, { input: { clientMutationId, projectId, name } }, { principal, loaders }, info) => {
    authorize(await loaders.access.load(projectId), principal, 'push_code');
    return mutationPayload('branchName', { clientMutationId }, info, async () => {
      const found = await git.findBranch(projectId, name);
      if (!found) throw notFoundAs('No such branch');
      if ((await git.headBranch(projectId)) === found.name) throw methodNotAllowed('Cannot remove HEAD branch');
      if ((await loaders.branchProtection.load(projectId)).protected.includes(found.name))
        throw methodNotAllowed('Protected branch cant be removed');
      await git.deleteBranch(projectId, found.name, pusherOf(principal));
      return found.name;
    });
  };

/** Both need Master; both are idempotent; a branch that does not exist is 404 (GitLab's messages). */
const protectBranch =
  ({ sql, git }: ResolverDeps): MutationResolvers['protectBranch'] =>
  async (_parent, { input: { clientMutationId, projectId, branch } }, { principal, loaders }, info) => {
    authorize(await loaders.access.load(projectId), principal, 'admin_project');
    return mutationPayload('branch', { clientMutationId }, info, async () => {
      const found = await git.findBranch(projectId, branch);
      if (!found) throw notFound('Branch');
      await protect(sql, projectId, found.name, false, principal);
      loaders.branchProtection.clear(projectId);
      return { projectId, name: found.name, commit: found.commit! };
    });
  };

const unprotectBranch =
  ({ sql, git }: ResolverDeps): MutationResolvers['unprotectBranch'] =>
  async (_parent, { input: { clientMutationId, projectId, branch } }, { principal, loaders }, info) => {
    authorize(await loaders.access.load(projectId), principal, 'admin_project');
    return mutationPayload('branch', { clientMutationId }, info, async () => {
      const found = await git.findBranch(projectId, branch);
      if (!found) throw notFound('Branch does not exist');
      await unprotect(sql, projectId, found.name, principal);
      loaders.branchProtection.clear(projectId);
      return { projectId, name: found.name, commit: found.commit! };
    });
  };

/**
 * One file changed by one commit (GitLab's files API): push rights, Master on a protected branch;
 * authored by the viewer, and recorded by the worker as the viewer's push.
 */
const commitFile =
  ({ git, identity }: ResolverDeps): MutationResolvers['commitFile'] =>
  async (_parent, { input }, { principal, loaders }, info) => {
    const { clientMutationId, projectId, action, branch, path, content, encoding, commitMessage } = input;
    const access = authorize(await loaders.access.load(projectId), principal, 'push_code');
    return mutationPayload('fileCommit', { clientMutationId }, info, async () => {
      if (!mayPushToBranch(access, principal, branch, await loaders.branchProtection.load(projectId)))
        throw protectedBranchRefusal(action);
      const badName = fileNameRefusal(action, path);
      if (badName) throw badName;
      const [user] = (await identity.call(usersLookup, { ids: [principal.userId!] })).users;
      try {
        const { commitId } = await git.commitFile({
          repository: { projectId },
          branch,
          action,
          path,
          content: action === 'DELETE' ? Buffer.alloc(0) : decodeContent(content ?? '', encoding),
          message: commitMessage,
          author: { name: user?.name ?? principal.username ?? '', email: user?.email ?? '' },
          userId: principal.userId ?? 0,
          username: principal.username ?? '',
        });
        return { filePath: path, branchName: branch, commitId };
      } catch (error) {
        throw fileCommitRefusal(action, error);
      }
    });
  };

/** Every mutation of this subgraph, made from the same dependencies. */
export const createMutationResolvers = (deps: ResolverDeps): MutationResolvers => ({
  protectBranch: protectBranch(deps),
  unprotectBranch: unprotectBranch(deps),
  createTag: createTag(deps),
  commitFile: commitFile(deps),
  createBranch: createBranch(deps),
  deleteBranch: deleteBranch(deps),
});
