import type { MergeRequestAttributes } from '@hub/common';
import type { MergeRequestRow } from './db/merge-requests';

/**
 * GitLab 7.14's MergeRequest#work_in_progress?: `title =~ /\A\[?WIP\]?:? /i`, so "WIP", an optional
 * bracket or colon, then a space ("WIP:x" and "WIP-x" are not, "[WIP x" is). Shown as
 * work_in_progress and refused on accept (405).
 */
export const isWorkInProgress = (title: string) => /^\[?WIP\]?:? /i.test(title);

/**
 * A merge request as its events carry it (the contract's mergeRequestAttributes), so consumers
 * such as project hooks need not ask this service again.
 */
export const mergeRequestAttributes = (
  mr: MergeRequestRow,
  lastCommit: MergeRequestAttributes['last_commit'] = null,
): MergeRequestAttributes => ({
  id: mr.id,
  iid: mr.iid,
  project_id: mr.projectId,
  target_project_id: mr.projectId,
  source_project_id: mr.sourceProjectId,
  target_branch: mr.targetBranch,
  source_branch: mr.sourceBranch,
  title: mr.title,
  description: mr.description ?? '',
  state: mr.state,
  author_id: mr.authorId,
  assignee_id: mr.assigneeId,
  milestone_id: mr.milestoneId,
  // Mergeability is computed when asked, never stored: GitLab's value for "not checked yet".
  merge_status: 'unchecked',
  merge_commit_sha: mr.mergeCommitSha,
  work_in_progress: isWorkInProgress(mr.title),
  created_at: mr.createdAt.toISOString(),
  updated_at: mr.updatedAt.toISOString(),
  last_commit: lastCommit,
});
