import type { V3IssueFragment } from '../generated/operations';
import { titled, type JsonSchema } from '../openapi/json-schema';
import { presentMilestone } from './milestone';

/** GitLab v3's Issue entity: labels by name, the Milestone entity (null when none), author and assignee. */
export const presentIssue = (issue: V3IssueFragment) => ({
  ...issue,
  milestone: issue.milestone && presentMilestone(issue.milestone),
});

/** presentIssue's shape: the document's (the milestone presenter keeps its shape). */
export const issueSchema = (selected: JsonSchema) => titled('Issue', selected);
