// The contract of services/projects: the events it emits and its internal endpoint. Owned by projects.
import { z } from 'zod';
import { defineEvents, endpoint, payload } from './define';
import { actor, id, lookupIds, timestamp } from './shared';

/** What membership decides access from; applied only when `version` is newer than what it holds. */
export const projectFacts = z.object({
  projectId: id,
  ownerId: id.nullable(),
  visibilityLevel: z.number().int(),
  archived: z.boolean(),
  issuesEnabled: z.boolean(),
  mergeRequestsEnabled: z.boolean(),
  snippetsEnabled: z.boolean(),
  wikiEnabled: z.boolean(),
  version: z.number().int(),
  deleted: z.boolean(),
  /**
   * Who created the project: GitLab made them a Master of it (Projects::CreateService). Read only
   * when membership first learns of the project; null in facts recorded before it was sent.
   */
  creatorId: id.nullable().default(null),
  /** The namespace the project lives in: a group's members have access to its projects. Null in facts sent before groups. */
  namespaceId: id.nullable().default(null),
});
export type ProjectFacts = z.output<typeof projectFacts>;

const project = {
  project_id: id,
  name: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  namespace_id: id,
  ...actor,
  facts: projectFacts,
  /** When the project was made (system hooks send it, for project_destroy too); null in events recorded before it was sent. */
  created_at: timestamp.nullable().default(null),
  /**
   * The namespace as it was when the event was recorded: system hooks name a group's project's
   * owner after it, also once the namespace is gone (a project deleted with its group or user).
   * Null in events recorded before they were sent.
   */
  namespace_kind: z.enum(['user', 'group']).nullable().default(null),
  namespace_name: z.string().nullable().default(null),
  /** The git worker shard holding the repository; `default` in events recorded before shards. */
  repository_storage: z.string().default('default'),
};

export const projectsEvents = defineEvents('projects', {
  /** The repository service makes the repository from these (forked or imported when asked). */
  'project.created': payload({
    ...project,
    forked_from_project_id: id.nullable(),
    default_branch: z.string(),
    import_url: z.string().nullable(),
    /** The creator's username, for the feed's `joined` entry (facts.creatorId is the creator). */
    creator_username: z.string().nullable().default(null),
  }),
  'project.updated': payload(project),
  'project.deleted': payload(project),
  /**
   * An entry appended to a project's activity feed (recorded by projects' own event consumer, in the
   * transaction that appends it), so the feed can be followed live: `node(id:)` with
   * `gid://hub/ProjectEvent/<event_id>` shows the entry to whoever may read the project.
   */
  'project_event.created': payload({
    project_id: id,
    /** The feed entry's id (ProjectEvent.databaseId): a bigserial, so not bounded to 32 bits as other ids. */
    event_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    /** As ProjectEvent.actionName: created, joined, left, pushed new, pushed to, deleted, opened, closed, accepted, commented on. */
    action_name: z.string(),
    /** Issue, MergeRequest or Note; null for an entry about the project itself (created, joined, a push). */
    target_type: z.string().nullable(),
    target_id: id.nullable(),
    /** The entry's author (for joined and left, the member, as the feed shows it). */
    ...actor,
  }),
});

export const projectSummary = z.object({
  id,
  name: z.string(),
  path: z.string(),
  pathWithNamespace: z.string(),
  namespaceName: z.string(),
  nameWithNamespace: z.string(),
  description: z.string().nullable(),
  defaultBranch: z.string(),
  visibilityLevel: z.number().int(),
  webUrl: z.string(),
  httpUrlToRepo: z.string(),
  sshUrlToRepo: z.string(),
  /** The project this one is a fork of (merge requests check a cross-project source against it). */
  forkedFromProjectId: id.nullable().optional(),
  /** The git worker shard holding the repository (merge requests route their git calls by it). */
  repositoryStorage: z.string().default('default'),
});
export type ProjectSummary = z.output<typeof projectSummary>;

/** What hook payloads and other non-graph callers show of projects; unknown ids are left out. */
export const projectsLookup = endpoint(
  '/internal/projects/lookup',
  z.object({ ids: lookupIds }),
  z.object({ projects: z.array(projectSummary) }),
);
