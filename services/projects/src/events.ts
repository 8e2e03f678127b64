import { handleOnce, type Sql, type StreamedEvent, type TransactionSql } from '@hub/common';
import { insertEvent, type EventInsert } from './db/events';
import { touchActivity } from './db/projects';
import type { ProjectsService } from './projects-service';

type FeedEntry = Omit<EventInsert, 'createdAt'>;
const num = (value: unknown) => (typeof value === 'number' ? value : Number(value));
const str = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Which domain events show in a project's feed, and how (GitLab's Event model: the action, its
 * author, its target). Services added later extend this table with their own events.
 */
const FEED: Record<string, (payload: Record<string, unknown>) => FeedEntry | null> = {
  'projects:project.created': (p) =>
    p.actor_id == null
      ? null
      : { projectId: num(p.project_id), actionName: 'created', title: null, targetId: null, targetType: null, targetTitle: null, authorId: num(p.actor_id), authorUsername: str(p.actor_username) ?? '', data: null },
  // GitLab's joined and left events are authored by the member, not by whoever made the change.
  'membership:member.added': (p) => ({
    projectId: num(p.project_id),
    actionName: 'joined',
    title: null,
    targetId: null,
    targetType: null,
    targetTitle: null,
    authorId: num(p.user_id),
    authorUsername: str(p.user_username) ?? '',
    data: null,
  }),
  'membership:member.removed': (p) => ({
    projectId: num(p.project_id),
    actionName: 'left',
    title: null,
    targetId: null,
    targetType: null,
    targetTitle: null,
    authorId: num(p.user_id),
    authorUsername: str(p.user_username) ?? '',
    data: null,
  }),
};

/** The events projects acts on: the feed, renamed namespaces, deleted users. */
export function createEventHandler(deps: { sql: Sql; projects: ProjectsService }) {
  const { sql } = deps;
  return async (event: StreamedEvent): Promise<void> => {
    const key = `${event.service}:${event.type}`;
    const feed = FEED[key];
    if (feed) {
      const entry = feed(event.payload);
      if (!entry) return;
      const createdAt = new Date(event.occurredAt);
      await handleOnce(sql, event, async (tx: TransactionSql) => {
        if (await insertEvent(tx, { ...entry, createdAt })) await touchActivity(tx, entry.projectId, createdAt);
      });
    } else if (key === 'identity:user.deleted') {
      await deps.projects.removeOwnedBy(num(event.payload.user_id));
    } else if (event.service === 'identity' && event.type.startsWith('user.')) {
      // A rename moves the personal namespace; a new name or state changes the owner's profile.
      await deps.projects.refreshOwner(num(event.payload.user_id));
    }
  };
}
