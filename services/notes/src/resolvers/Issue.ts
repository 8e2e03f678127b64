import { pageWindow } from '@hub/common';
import { findNote, listNotes } from '../db/notes';
import type { IssueResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const issueTarget = (issue: { id: number; projectId: number }) => ({ projectId: issue.projectId, noteableType: 'Issue' as const, noteableId: issue.id });

export const createIssueResolvers = ({ sql }: ResolverDeps): IssueResolvers => ({
  author: (issue) => ({ id: issue.authorId }),
  assignee: (issue) => (issue.assigneeId === null ? null : { id: issue.assigneeId }),
  notes: async (issue, args) => {
    const { rows, total } = await listNotes(sql, issueTarget(issue), pageWindow(args.page, args.perPage));
    return { nodes: rows, total };
  },
  note: async (issue, { id }) => (await findNote(sql, issueTarget(issue), id)) ?? null,
  upvotes: async (issue, _args, { loaders }) => (await loaders.issueVotes.load(issue.id)).up,
  downvotes: async (issue, _args, { loaders }) => (await loaders.issueVotes.load(issue.id)).down,
});
