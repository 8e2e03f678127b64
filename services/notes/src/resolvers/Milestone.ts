import { can } from '@hub/common';
import type { MilestoneResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

export const createMilestoneResolvers = ({ notes }: ResolverDeps): MilestoneResolvers => ({
  // Merge requests name their milestone by id; it shows to those who may read the project's
  // milestones (read_milestone, gone with issues and merge requests both disabled).
  __resolveReference: async (reference, { principal, loaders }) => {
    const milestone = await loaders.milestones.load((reference as { id: number }).id);
    if (!milestone) return null;
    const access = await loaders.access.load(milestone.projectId);
    return access && can(access, principal, 'read_milestone') ? milestone : null;
  },
  issues: (milestone, { page, perPage }, { principal }) => notes.milestoneIssues(principal, milestone, page, perPage),
});
