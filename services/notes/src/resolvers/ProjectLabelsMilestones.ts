import type { ProjectResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const MILESTONE_STATES = { ACTIVE: 'active', CLOSED: 'closed' } as const;

/** The labels and milestones this subgraph adds to Project. */
export const createProjectLabelsMilestonesResolvers = ({
  notes,
}: ResolverDeps): Pick<ProjectResolvers, 'labels' | 'milestones' | 'milestone'> => ({
  labels: (project, { page, perPage }, { principal }) => notes.labels(principal, project.id, page, perPage),
  milestones: (project, { state, iid, page, perPage }, { principal }) =>
    notes.milestones(principal, project.id, { state: state ? MILESTONE_STATES[state] : null, iid }, page, perPage),
  milestone: (project, { id }, { principal }) => notes.milestone(principal, project.id, id),
});
