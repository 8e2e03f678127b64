import { can, publicEnum, referencedDatabaseId, toGlobalId } from '@hub/common';
import type { IssueRow } from '../db/issues';
import type { IssueResolvers, IssueState } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { noteListOf, noteOf } from './Noteable';

const issueState = publicEnum<IssueRow['state'], IssueState>('IssueState', {
  opened: 'OPENED',
  closed: 'CLOSED',
  reopened: 'REOPENED',
});

const issueTarget = (issue: { id: number; projectId: number }) => ({
  projectId: issue.projectId,
  noteableType: 'Issue' as const,
  noteableId: issue.id,
});

export const createIssueResolvers = (deps: ResolverDeps): IssueResolvers => {
  const list = noteListOf(deps);
  const one = noteOf(deps);
  return {
    // Query.issue (projects) names an issue by its project and number; other subgraphs by its
    // databaseId; node(id:) by its global id. Whichever, the viewer must be able to read the
    // project, as Project.issue (REST v3's GET /projects/:id/issues/:issue_id) requires, or the
    // issue is null, as one that does not exist.
    __resolveReference: async (reference, { principal, loaders }) => {
      let issue: IssueRow | null;
      if ('iid' in reference) {
        issue = await loaders.issuesByIid.load({ projectId: reference.projectId, iid: reference.iid });
      } else {
        const id = referencedDatabaseId('Issue', reference);
        if (id === null) return null;
        issue = await loaders.issues.load(id);
      }
      if (!issue) return null;
      const access = await loaders.access.load(issue.projectId);
      return access && can(access, principal, 'read_project') ? issue : null;
    },
    id: (issue) => toGlobalId('Issue', issue.id),
    databaseId: (issue) => issue.id,
    state: (issue) => issueState(issue.state),
    v3State: (issue) => issue.state,
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
