import type { KnownEvent } from '@hub/common';

/** create or destroy: GitLab's execute_hooks_for(model, :create | :destroy). */
export type SystemAction = 'create' | 'destroy';

/**
 * A domain event as GitLab's SystemHooksService saw it: the model that changed and how. `createdAt`
 * is the model's created_at where the event carries it (projects, users, keys), else when the
 * event happened (the same moment for a creation); `keySuffix` tells apart the system events one
 * domain event makes.
 */
export type SystemEvent = { action: SystemAction; createdAt: string; keySuffix: string } & (
  | {
      model: 'project';
      projectId: number;
      name: string;
      path: string;
      pathWithNamespace: string;
      /** A group's project names the group as its owner; a user's, the user. */
      namespaceKind: 'user' | 'group';
      /** Null in events recorded before projects sent it. */
      namespaceName: string | null;
      ownerId: number | null;
      visibilityLevel: number;
    }
  | { model: 'user'; userId: number; name: string; email: string }
  | {
      model: 'project_member';
      projectId: number;
      userId: number;
      accessLevel: number;
    }
  | { model: 'group'; groupId: number; name: string; path: string; ownerName: string | null; ownerEmail: string | null }
  | { model: 'key'; keyId: number; deployKey: boolean; key: string; username: string | null }
  | {
      model: 'group_member';
      groupId: number;
      groupName: string;
      groupPath: string;
      userId: number;
      userName: string | null;
      userEmail: string | null;
      accessLevel: number;
    }
);

/** The system events a (checked, typed) domain event stands for; none for most events. */
export function readSystemEvents(known: KnownEvent): SystemEvent[] {
  const at = { createdAt: known.event.occurredAt, keySuffix: '' };
  switch (known.key) {
    case 'projects:project.created':
    case 'projects:project.deleted': {
      const p = known.payload;
      const action = known.key === 'projects:project.created' ? 'create' : 'destroy';
      // Events recorded before projects sent the kind: only a user's namespace has an owner.
      const namespaceKind = p.namespace_kind ?? (p.facts.ownerId === null ? 'group' : 'user');
      const project: SystemEvent = {
        ...at,
        // The project's own created_at, as GitLab sent it (for project_destroy too), where the event has it.
        createdAt: p.created_at ?? at.createdAt,
        model: 'project',
        action,
        projectId: p.project_id,
        name: p.name,
        path: p.path,
        pathWithNamespace: p.path_with_namespace,
        namespaceKind,
        namespaceName: p.namespace_name,
        ownerId: p.facts.ownerId,
        visibilityLevel: p.facts.visibilityLevel,
      };
      if (action === 'destroy' || p.facts.creatorId === null || namespaceKind === 'group') return [project];
      // Projects::CreateService made the creator a Master (`team << [user, :master]`) right after
      // project_create, in a user's namespace only (a group's members have the group's access);
      // membership records that row without an event of its own.
      const creator: SystemEvent = {
        createdAt: at.createdAt,
        keySuffix: ':creator',
        model: 'project_member',
        action: 'create',
        projectId: p.project_id,
        userId: p.facts.creatorId,
        accessLevel: 40,
      };
      return [project, creator];
    }
    case 'identity:user.created':
    case 'identity:user.deleted': {
      const p = known.payload;
      return [
        {
          ...at,
          createdAt: p.created_at ?? at.createdAt,
          model: 'user',
          action: known.key === 'identity:user.created' ? 'create' : 'destroy',
          userId: p.user_id,
          name: p.name,
          email: p.email,
        },
      ];
    }
    case 'membership:member.added':
    case 'membership:member.removed': {
      const p = known.payload;
      return [
        {
          ...at,
          model: 'project_member',
          action: known.key === 'membership:member.added' ? 'create' : 'destroy',
          projectId: p.project_id,
          userId: p.user_id,
          accessLevel: p.access_level,
        },
      ];
    }
    case 'identity:group.created':
    case 'identity:group.deleted': {
      const p = known.payload;
      return [
        {
          ...at,
          model: 'group',
          action: known.key === 'identity:group.created' ? 'create' : 'destroy',
          groupId: p.group_id,
          name: p.name,
          path: p.path,
          ownerName: p.owner_name,
          ownerEmail: p.owner_email,
        },
      ];
    }
    case 'identity:key.created':
    case 'identity:key.deleted': {
      const p = known.payload;
      return [
        {
          // GitLab sent the key's own created_at, for its destroy too.
          ...at,
          createdAt: p.created_at,
          model: 'key',
          action: known.key === 'identity:key.created' ? 'create' : 'destroy',
          keyId: p.key_id,
          deployKey: p.kind === 'deploy',
          key: p.key,
          username: p.username,
        },
      ];
    }
    case 'membership:group_member.added':
    case 'membership:group_member.removed': {
      const p = known.payload;
      return [
        {
          ...at,
          model: 'group_member',
          action: known.key === 'membership:group_member.added' ? 'create' : 'destroy',
          groupId: p.group_id,
          groupName: p.group_name,
          groupPath: p.group_path,
          userId: p.user_id,
          userName: p.user_name,
          userEmail: p.user_email,
          accessLevel: p.access_level,
        },
      ];
    }
    default:
      return [];
  }
}
