import { pushedCommit, type ProjectSummary, type UserSummary } from '@hub/common';
import type { HookEvent, PushCommit } from './hook-events';

/** What a payload names besides the event itself: projects by id and the acting user. */
export interface PayloadContext {
  projects: Map<number, ProjectSummary>;
  actor: UserSummary | null;
}

/** GitLab's user.hook_attrs. */
const userAttributes = (user: UserSummary | null) => ({
  name: user?.name ?? null,
  username: user?.username ?? null,
  avatar_url: user?.avatarUrl ?? null,
});

/** GitLab's `repository` of push and note payloads. */
const repositoryOf = (project: ProjectSummary) => ({
  name: project.name,
  url: project.sshUrlToRepo,
  description: project.description ?? '',
  homepage: project.webUrl,
  git_http_url: project.httpUrlToRepo,
  git_ssh_url: project.sshUrlToRepo,
  visibility_level: project.visibilityLevel,
});

/** GitLab's project.hook_attrs, as merge request payloads show source and target. */
const projectAttributes = (project: ProjectSummary | undefined) =>
  project && {
    name: project.name,
    ssh_url: project.sshUrlToRepo,
    http_url: project.httpUrlToRepo,
    web_url: project.webUrl,
    namespace: project.namespaceName,
    visibility_level: project.visibilityLevel,
  };

const commitAttributes = (project: ProjectSummary) => (commit: PushCommit) => ({
  id: commit.id,
  message: commit.message,
  timestamp: commit.timestamp,
  url: `${project.webUrl}/commit/${commit.id}`,
  author: commit.author,
});

/** Where GitLab's web pages show a noteable, relative to the project's page. */
const NOTEABLE_PATH = {
  Issue: (attributes: Record<string, unknown>) => `issues/${attributes.iid}`,
  MergeRequest: (attributes: Record<string, unknown>) => `merge_requests/${attributes.iid}`,
  Snippet: (attributes: Record<string, unknown>) => `snippets/${attributes.id}`,
  Commit: (attributes: Record<string, unknown>) => `commit/${attributes.id}`,
};
const NOTEABLE_KEY = { Issue: 'issue', MergeRequest: 'merge_request', Snippet: 'snippet', Commit: 'commit' } as const;

/**
 * GitLab's hook payload for an event, field for field (lib/gitlab/push_data_builder.rb,
 * Issuable#to_hook_data, the note data builder), plus a few fields later GitLab versions added
 * (user_avatar, repository on issue and note hooks). Null when the event's project is gone.
 */
export function buildPayload(event: HookEvent, context: PayloadContext): Record<string, unknown> | null {
  const project = context.projects.get(event.projectId);
  if (!project) return null;
  const { actor } = context;
  switch (event.kind) {
    case 'push':
    case 'tag_push':
      // A tag push as GitLab 8.x sent it (what v3 clients saw longest): the tagged commit as its
      // one commit, and the annotation as the message (7.14 sent neither).
      return {
        object_kind: event.kind,
        before: event.before,
        after: event.after,
        ref: event.ref,
        checkout_sha: event.checkoutSha,
        message: event.message,
        user_id: event.actorId,
        user_name: actor?.name ?? null,
        user_email: actor?.email ?? null,
        user_avatar: actor?.avatarUrl ?? null,
        project_id: event.projectId,
        repository: repositoryOf(project),
        commits: event.commits.map(commitAttributes(project)),
        total_commits_count: event.totalCommitsCount,
      };
    case 'issue':
      return {
        object_kind: 'issue',
        user: userAttributes(actor),
        project_id: event.projectId,
        repository: repositoryOf(project),
        object_attributes: {
          ...event.attributes,
          url: `${project.webUrl}/issues/${event.attributes.iid}`,
          action: event.action,
        },
      };
    case 'merge_request': {
      const a = event.attributes;
      const source = context.projects.get(a.source_project_id);
      const lastCommit = a.last_commit;
      return {
        object_kind: 'merge_request',
        user: userAttributes(actor),
        project_id: event.projectId,
        repository: repositoryOf(project),
        object_attributes: {
          ...a,
          source: projectAttributes(source) ?? null,
          target: projectAttributes(project),
          last_commit: lastCommit && source ? commitAttributes(source)(lastCommit) : null,
          url: `${project.webUrl}/merge_requests/${a.iid}`,
          action: event.action,
        },
      };
    }
    case 'note': {
      const noteablePath = event.noteable ? NOTEABLE_PATH[event.noteableType](event.noteable) : '';
      return {
        object_kind: 'note',
        user: userAttributes(actor),
        project_id: event.projectId,
        repository: repositoryOf(project),
        object_attributes: { ...event.note, url: `${project.webUrl}/${noteablePath}#note_${event.note.id}` },
        // A commit shows as push payloads show commits (with its URL), as GitLab's note hook had it.
        [NOTEABLE_KEY[event.noteableType]]:
          event.noteableType === 'Commit' && event.noteable
            ? commitAttributes(project)(pushedCommit.parse(event.noteable))
            : event.noteable,
      };
    }
  }
}

/** The projects a payload names: the event's, and a merge request's source. */
export function projectsNamedBy(event: HookEvent): number[] {
  if (event.kind === 'merge_request') return [...new Set([event.projectId, event.attributes.source_project_id])];
  return [event.projectId];
}
