import type { ProjectSummary, UserSummary } from '@hub/common';
import type { SystemEvent } from './system-events';

/** The X-Gitlab-Event of every system hook request: 'system_hooks'.singularize.titleize. */
export const SYSTEM_HOOK_EVENT = 'System Hook';

/** What payloads name besides the event itself, asked of projects and identity. */
export interface SystemPayloadContext {
  users: Map<number, UserSummary>;
  projects: Map<number, ProjectSummary>;
}

/** Gitlab::Access's human names, as human_access gave them. */
const HUMAN_ACCESS: Record<number, string> = {
  10: 'Guest',
  20: 'Reporter',
  30: 'Developer',
  40: 'Master',
  50: 'Owner',
};
/** Project.visibility_levels.key(level).downcase. */
const VISIBILITY: Record<number, string> = { 0: 'private', 10: 'internal', 20: 'public' };

const humanAccess = (level: number) => HUMAN_ACCESS[level] ?? String(level);
const visibility = (level: number) => VISIBILITY[level] ?? String(level);

/** Ruby's Time#xmlschema in UTC: seconds, no fraction, 'Z'. */
export const xmlschema = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The namespace part of a path_with_namespace. */
const namespacePathOf = (pathWithNamespace: string) => pathWithNamespace.slice(0, pathWithNamespace.lastIndexOf('/'));

/** The ids a payload's lookups need. */
export function systemLookups(event: SystemEvent): { users: number[]; projects: number[] } {
  switch (event.model) {
    case 'project':
      return { users: event.namespaceKind === 'user' && event.ownerId !== null ? [event.ownerId] : [], projects: [] };
    case 'project_member':
      return { users: [event.userId], projects: [event.projectId] };
    case 'group_member':
      return { users: event.userName === null || event.userEmail === null ? [event.userId] : [], projects: [] };
    default:
      return { users: [], projects: [] };
  }
}

/**
 * GitLab 7.14's system hook payload (SystemHooksService#build_event_data), field for field and in
 * its order: event_name, created_at, then the model's fields (created_at: see SystemEvent). Null
 * when the event sends nothing (a member of a project that is gone).
 */
export function buildSystemPayload(event: SystemEvent, context: SystemPayloadContext): Record<string, unknown> | null {
  const head = { created_at: xmlschema(event.createdAt) };
  switch (event.model) {
    case 'project': {
      // Project#owner: the group for a group's project (a group has no email: ""), else the
      // namespace's owner. A user deleted with their projects is gone by the time their
      // project_destroy is built: their namespace's name (the username) stands in, with no email.
      // Events recorded before projects sent the name have the path, which a user's namespace shares.
      const namespaceName = event.namespaceName ?? namespacePathOf(event.pathWithNamespace);
      const owner =
        event.namespaceKind === 'user' && event.ownerId !== null ? context.users.get(event.ownerId) : undefined;
      return {
        event_name: `project_${event.action}`,
        ...head,
        name: event.name,
        path: event.path,
        path_with_namespace: event.pathWithNamespace,
        project_id: event.projectId,
        owner_name: owner?.name ?? namespaceName,
        owner_email: owner?.email ?? '',
        project_visibility: visibility(event.visibilityLevel),
      };
    }
    case 'user':
      return {
        event_name: `user_${event.action}`,
        ...head,
        name: event.name,
        email: event.email,
        user_id: event.userId,
      };
    case 'project_member': {
      const project = context.projects.get(event.projectId);
      if (!project) return null;
      const user = context.users.get(event.userId);
      return {
        event_name: event.action === 'create' ? 'user_add_to_team' : 'user_remove_from_team',
        ...head,
        project_name: project.name,
        project_path: project.path,
        project_id: project.id,
        user_name: user?.name ?? null,
        user_email: user?.email ?? null,
        access_level: humanAccess(event.accessLevel),
        project_visibility: visibility(project.visibilityLevel),
      };
    }
    case 'group':
      return {
        event_name: `group_${event.action}`,
        ...head,
        name: event.name,
        path: event.path,
        group_id: event.groupId,
        owner_name: event.ownerName,
        owner_email: event.ownerEmail,
      };
    case 'key':
      return {
        // 'deploykey_create' for a deploy key: GitLab named the event after the model's class.
        event_name: `${event.deployKey ? 'deploykey' : 'key'}_${event.action}`,
        ...head,
        key: event.key,
        id: event.keyId,
        ...(event.username === null ? {} : { username: event.username }),
      };
    case 'group_member': {
      const user = context.users.get(event.userId);
      return {
        event_name: event.action === 'create' ? 'user_add_to_group' : 'user_remove_from_group',
        ...head,
        group_name: event.groupName,
        group_path: event.groupPath,
        group_id: event.groupId,
        user_name: event.userName ?? user?.name ?? null,
        user_email: event.userEmail ?? user?.email ?? null,
        user_id: event.userId,
        group_access: humanAccess(event.accessLevel),
      };
    }
  }
}

/** What GET /hooks/:id sends to test a hook: GitLab 7.14's fixed sample, without created_at. */
export const TEST_PAYLOAD = {
  event_name: 'project_create',
  name: 'Ruby',
  path: 'ruby',
  project_id: 1,
  owner_name: 'Someone',
  owner_email: 'example@gitlabhq.com',
} as const;
