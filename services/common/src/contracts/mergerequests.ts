// The contract of services/mergerequests: the events it emits and its internal endpoint. Owned by mergerequests.
import { z } from 'zod';
import { defineEvents, endpoint, payload } from './define';
import { pushedCommit } from './git-worker';
import { actor, assigneeId, id, lookupId, timestamp } from './shared';

/** A merge request as its events carry it: GitLab's hook attributes (its columns, snake_case). */
export const mergeRequestAttributes = z.object({
  id,
  iid: z.number().int(),
  project_id: id,
  target_project_id: id,
  source_project_id: id,
  target_branch: z.string(),
  source_branch: z.string(),
  title: z.string(),
  description: z.string(),
  state: z.enum(['opened', 'closed', 'merged', 'reopened']),
  author_id: id,
  assignee_id: assigneeId.nullable(),
  milestone_id: id.nullable(),
  merge_status: z.string(),
  merge_commit_sha: z.string().nullable(),
  work_in_progress: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
  /** The source branch's head, when the git worker could say. */
  last_commit: pushedCommit.nullable().default(null),
});
export type MergeRequestAttributes = z.output<typeof mergeRequestAttributes>;

const mergeRequest = payload({
  project_id: id,
  ...actor,
  action: z.string(),
  merge_request_id: id,
  iid: z.number().int(),
  title: z.string(),
  state: z.string(),
  source_project_id: id,
  source_branch: z.string(),
  target_branch: z.string(),
  author_id: id,
  assignee_id: assigneeId.nullable(),
  merge_commit_sha: z.string().nullable(),
  attributes: mergeRequestAttributes,
});

export const mergeRequestsEvents = defineEvents('mergerequests', {
  'merge_request.opened': mergeRequest,
  'merge_request.updated': mergeRequest,
  'merge_request.closed': mergeRequest,
  'merge_request.reopened': mergeRequest,
  'merge_request.merged': mergeRequest,
});

/** Whether a merge request belongs to a project, with its attributes (for the note's event). */
export const mergeRequestFind = endpoint(
  '/internal/merge-requests/find',
  z.object({ projectId: lookupId, id: lookupId }),
  z.object({ found: z.boolean(), attributes: mergeRequestAttributes.nullable() }),
);
