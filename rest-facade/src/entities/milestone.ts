import { titled, type JsonSchema } from '../openapi/json-schema';
import type { V3MilestoneFragment } from '../generated/operations';

/** GitLab v3's Milestone entity (ProjectEntity fields, then due_date): the document names each field as v3 does. */
export const presentMilestone = (milestone: V3MilestoneFragment) => ({ ...milestone });

export const milestoneSchema = (selected: JsonSchema) => titled('Milestone', selected);
