import { handleOnce, type Sql, type StreamedEvent, type TransactionSql } from '@hub/common';
import { insertEvent, type EventInsert } from './db/events';
import { touchActivity } from './db/projects';
import type { ProjectsService } from './projects-service';

type FeedEntry = Omit<EventInsert, 'createdAt'>;
const num = (value: unknown) => (typeof value === 'number' ? value : Number(value));
const str = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * A feed entry about the project itself (no target), authored by `author`: the payload's actor,
 * or for joined and left the member (as GitLab did), not whoever made the change.
 */
const projectEntry =
  (actionName: string, author: 'actor' | 'user') =>
  (p: Record<string, unknown>): FeedEntry | null =>
    p[`${author}_id`] == null
      ? null
      : {
          projectId: num(p.project_id),
          actionName,
          title: null,
          targetId: null,
          targetType: null,
          targetTitle: null,
          authorId: num(p[`${author}_id`]),
          authorUsername: str(p[`${author}_username`]) ?? '',
          data: null,
        };

/**
 * Which domain events show in a project's feed, and how (GitLab's Event model: the action, its
 * author, its target). Services added later extend this table with their own events.
 */
const FEED: Record<string, (payload: Record<string, unknown>) => FeedEntry | null> = {
  'projects:project.created': projectEntry('created', 'actor'),
  'membership:member.added': projectEntry('joined', 'user'),
  'membership:member.removed': projectEntry('left', 'user'),
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
