import { ownedNodes } from '@hub/common';
import type { Resolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { createIssueResolvers } from './Issue';
import { issueConnectionResolvers } from './issue-lists';
import {
  labelConnectionResolvers,
  milestoneConnectionResolvers,
  noteConnectionResolvers,
  snippetConnectionResolvers,
} from './lists';
import { createLabelResolvers } from './Label';
import { createLabelMilestoneMutationResolvers } from './LabelMilestoneMutations';
import { createMilestoneResolvers } from './Milestone';
import { createMergeRequestResolvers } from './MergeRequest';
import { createMutationResolvers } from './Mutation';
import { createNoteResolvers } from './Note';
import { createNoteableResolvers } from './Noteable';
import { createProjectResolvers } from './Project';
import { createProjectLabelsMilestonesResolvers } from './ProjectLabelsMilestones';
import { createQueryResolvers } from './Query';
import { createSnippetResolvers } from './Snippet';
import { userResolvers } from './User';

export type { ResolverDeps };

export function createResolvers(deps: ResolverDeps): Resolvers {
  const issue = createIssueResolvers(deps);
  const note = createNoteResolvers(deps);
  return {
    MergeRequest: createMergeRequestResolvers(deps),
    Project: { ...createProjectResolvers(deps), ...createProjectLabelsMilestonesResolvers(deps) },
    Snippet: createSnippetResolvers(deps),
    Issue: issue,
    Note: note,
    Noteable: createNoteableResolvers(deps),
    Mutation: { ...createMutationResolvers(deps), ...createLabelMilestoneMutationResolvers(deps) },
    Query: {
      ...createQueryResolvers(deps),
      issueNodes: ownedNodes('Issue', issue.__resolveReference!),
      noteNodes: ownedNodes('Note', note.__resolveReference!),
    },
    Label: createLabelResolvers(deps),
    Milestone: createMilestoneResolvers(deps),
    IssueConnection: issueConnectionResolvers,
    NoteConnection: noteConnectionResolvers,
    SnippetConnection: snippetConnectionResolvers,
    LabelConnection: labelConnectionResolvers,
    MilestoneConnection: milestoneConnectionResolvers,
    User: userResolvers,
  };
}
