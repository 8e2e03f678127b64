import type { V3IssueFragment } from '../generated/operations';
import { presentMilestone } from './milestone';

/** GitLab v3's Issue entity: labels by name, the Milestone entity (null when none), author and assignee. */
export const presentIssue = (issue: V3IssueFragment) => ({
  ...issue,
  milestone: issue.milestone && presentMilestone(issue.milestone),
});
