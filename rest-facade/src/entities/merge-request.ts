import type { V3MilestoneFragment } from '../generated/operations';
import { titled, type JsonSchema } from '../openapi/json-schema';
import { presentMilestone } from './milestone';

/**
 * GitLab v3's MergeRequest entity: the document already names every field as v3 does (users in
 * the spec's full form), with the Milestone entity (null when none).
 */
export const presentMergeRequest = <T extends { milestone: V3MilestoneFragment | null }>(mr: T) => ({
  ...mr,
  milestone: mr.milestone && presentMilestone(mr.milestone),
});

/** presentMergeRequest's shape: the document's (the milestone presenter keeps its shape). */
export const mergeRequestSchema = (selected: JsonSchema) => titled('MergeRequest', selected);
