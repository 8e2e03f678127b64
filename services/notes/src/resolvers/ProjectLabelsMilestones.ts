import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';
import { labelList, milestoneList } from './lists';

const MILESTONE_STATES = { ACTIVE: 'active', CLOSED: 'closed' } as const;

/** The labels and milestones this subgraph adds to Project. */
export const createProjectLabelsMilestonesResolvers = (
  deps: ResolverDeps,
): Pick<ProjectResolvers, 'labels' | 'milestones' | 'milestone'> => ({
  labels: async (project, args, { principal }) => {
    await deps.notes.authorizeLabels(principal, project.id);
    return labelList(deps, project.id, args);
  },
  // Newest first; `state` (active or closed) and `iid` filter as later v3 servers did.
  milestones: async (project, args, { principal }) => {
    await deps.notes.authorizeMilestones(principal, project.id);
    const { state, iid } = args;
    return milestoneList(deps, { projectId: project.id, state: state ? MILESTONE_STATES[state] : null, iid }, args);
  },
  milestone: (project, { id }, { principal }) => deps.notes.milestone(principal, project.id, id),
});
