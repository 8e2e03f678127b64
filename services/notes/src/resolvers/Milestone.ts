import { can, publicEnum, referencedDatabaseId, toGlobalId } from '@hub/common';
import type { MilestoneRow } from '../db/milestones';
import type { MilestoneResolvers, MilestoneState } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { issueList } from './issue-lists';

const milestoneState = publicEnum<MilestoneRow['state'], MilestoneState>('MilestoneState', {
  active: 'ACTIVE',
  closed: 'CLOSED',
});

export const createMilestoneResolvers = (deps: ResolverDeps): MilestoneResolvers => ({
  // Merge requests name their milestone by databaseId, node(id:) by its global id; either way it
  // shows to those who may read the project's milestones (read_milestone, gone with issues and
  // merge requests both disabled), as Project.milestone requires.
  __resolveReference: async (reference, { principal, loaders }) => {
    const id = referencedDatabaseId('Milestone', reference);
    if (id === null) return null;
    const milestone = await loaders.milestones.load(id);
    if (!milestone) return null;
    const access = await loaders.access.load(milestone.projectId);
    return access && can(access, principal, 'read_milestone') ? milestone : null;
  },
  id: (milestone) => toGlobalId('Milestone', milestone.id),
  databaseId: (milestone) => milestone.id,
  state: (milestone) => milestoneState(milestone.state),
  v3State: (milestone) => milestone.state,
  // Its issues in every state, newest first, to those who may read the project's milestones.
  issues: async (milestone, args, { principal }) => {
    await deps.notes.authorizeMilestoneIssues(principal, milestone);
    return issueList(
      deps,
      { projectId: milestone.projectId, milestoneId: milestone.id, states: null, labels: [] },
      args,
    );
  },
});
