import type { V3MilestoneFragment } from '../generated/operations';
import { presentMilestone } from './milestone';

/**
 * GitLab v3's MergeRequest entity: the document already names every field as v3 does (users in
 * the spec's full form), with the Milestone entity (null when none).
 */
export const presentMergeRequest = <T extends { milestone: V3MilestoneFragment | null }>(mr: T) => ({
  ...mr,
  milestone: mr.milestone && presentMilestone(mr.milestone),
});
