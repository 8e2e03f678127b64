import { can } from '@hub/common';
import { findIssueByIid } from '../db/issues';
import type { IssueResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { noteListOf, noteOf } from './Noteable';

const issueTarget = (issue: { id: number; projectId: number }) => ({
  projectId: issue.projectId,
  noteableType: 'Issue' as const,
  noteableId: issue.id,
});

export const createIssueResolvers = (deps: ResolverDeps): IssueResolvers => {
  const list = noteListOf(deps);
  const one = noteOf(deps);
  return {
    // Query.issue (projects) names an issue by its project and number; the viewer must be able
    // to read the project, or the issue is null, as one that does not exist.
    __resolveReference: async (reference, { principal, loaders }) => {
      const { projectId, iid } = reference as { projectId: number; iid: number };
      const access = await loaders.access.load(projectId);
      if (!access || !can(access, principal, 'read_project')) return null;
      return (await findIssueByIid(deps.sql, projectId, iid)) ?? null;
    },
    author: (issue) => ({ id: issue.authorId }),
    assignee: (issue) => (issue.assigneeId === null ? null : { id: issue.assigneeId }),
    milestone: (issue, _args, { loaders }) =>
      issue.milestoneId === null ? null : loaders.milestones.load(issue.milestoneId),
    notes: (issue, args) => list(issueTarget(issue), args),
    note: (issue, { id }) => one(issueTarget(issue), id),
    upvotes: async (issue, _args, { loaders }) => (await loaders.issueVotes.load(issue.id)).up,
    downvotes: async (issue, _args, { loaders }) => (await loaders.issueVotes.load(issue.id)).down,
  };
};
