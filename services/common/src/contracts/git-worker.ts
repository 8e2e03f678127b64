// The contract of services/git-worker's events: pushes, in GitLab's push-hook terms. Owned by the git worker.
import { z } from 'zod';
import { defineEvents, payload } from './define';
import { actor, id } from './shared';

export const pushedCommit = z.object({
  id: z.string(),
  message: z.string(),
  timestamp: z.string().nullable().default(null),
  author: z.object({ name: z.string().default(''), email: z.string().default('') }),
});

const push = payload({
  project_id: id,
  ...actor,
  before: z.string(),
  after: z.string(),
  ref: z.string(),
  checkout_sha: z.string().nullable(),
  /** The newest 20 at most, oldest first. */
  commits: z.array(pushedCommit),
  total_commits_count: z.number().int(),
  default_branch: z.string(),
  /** The push that created the default branch of an empty repository (which then gets protected). */
  first_push_to_default_branch: z.boolean(),
});

export const gitWorkerEvents = defineEvents('git_worker', { push, tag_push: push });
