// The contract of services/git-worker: its events (pushes, in GitLab's push-hook terms) and the claims
// its git-over-HTTP side takes from the facade. Owned by the git worker (the gRPC side is protos/).
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
  /** The commit the ref names now: for a tag, the one it points at (an annotated tag's object is not it). */
  checkout_sha: z.string().nullable(),
  /** An annotated tag's message, for a tag push; null otherwise (absent from events recorded before). */
  message: z.string().nullable().default(null),
  /** The newest 20 at most, oldest first; for a tag push, the tagged commit. */
  commits: z.array(pushedCommit),
  total_commits_count: z.number().int(),
  default_branch: z.string(),
  /** The push that created the default branch of an empty repository (which then gets protected). */
  first_push_to_default_branch: z.boolean(),
});

export const gitWorkerEvents = defineEvents('git_worker', { push, tag_push: push });

/**
 * What the facade tells the git worker about a git-over-HTTP request it has authorized, signed
 * with the shared secret (signClaims) in GIT_ACCESS_HEADER. The worker enforces the push rules with it.
 */
export const GIT_ACCESS_HEADER = 'x-hub-git-access';
export const gitAccessClaims = z.object({
  projectId: id,
  /** The pusher; null for anonymous clones of public projects. */
  userId: id.nullable(),
  username: z.string().nullable(),
  /** May push to unprotected branches (Developer and above). */
  push: z.boolean(),
  /** May push to protected branches (Master and above). Nobody force-pushes or deletes them. */
  pushProtected: z.boolean(),
  protectedBranches: z.array(z.string()),
  /** Protected branches that push rights suffice for (GitLab's developers_can_push); still no force push or delete. */
  developersCanPush: z.array(z.string()).default([]),
  /** HEAD of a repository the worker has to create on the spot. */
  defaultBranch: z.string(),
  /**
   * False for another shard reading a source repository (a fork's, a merge request's): a missing
   * repository then answers 404 rather than being made here, empty and orphaned. Absent (the
   * facade's clones and pushes): the repository is made on the spot.
   */
  create: z.boolean().optional(),
});
export type GitAccessClaims = z.output<typeof gitAccessClaims>;

/**
 * Downloads over the worker's HTTP port: blobs (GET /blobs/<projectId>?oid= or ?ref=&path=) and
 * archives (GET /archives/<projectId>?ref=&format=&prefix=). The facade has authorized the
 * download and signs these claims for the purpose DOWNLOAD_PURPOSE in GIT_ACCESS_HEADER, so a
 * clone's or push's claims never open a download and the reverse. Plain HTTP rather than gRPC
 * streams: a 1 MiB blob cost about a millisecond less at each end, and a 1 GiB archive half the
 * worker's memory growth.
 */
export const DOWNLOAD_PURPOSE = 'download';
export const downloadClaims = z.object({ projectId: id });
export type DownloadClaims = z.output<typeof downloadClaims>;
/** What the worker says about a blob it sends, in response headers before the bytes. */
export const BLOB_HEADERS = { oid: 'x-blob-oid', text: 'x-blob-text', commitId: 'x-blob-commit' } as const;
