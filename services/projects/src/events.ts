import {
  createKnownEventReader,
  handleOnce,
  projectsEvents,
  type KnownEvent,
  type Logger,
  type Sql,
  type StreamedEvent,
  type TransactionSql,
} from '@hub/common';
import { insertEvent, type EventInsert } from './db/events';
import { touchActivity } from './db/projects';
import { projectUrlsAt } from './domain/project-urls';
import type { ProjectsService } from './projects-service';

type FeedEntry = Omit<EventInsert, 'createdAt'>;

const ZERO = '0'.repeat(40);

/** A feed entry without a target, authored by the payload's actor or (for joined and left) member. */
function entry(
  projectId: number,
  actionName: string,
  authorId: number | null,
  authorUsername: string | null,
  data: unknown = null,
): FeedEntry | null {
  if (authorId === null) return null;
  return {
    projectId,
    actionName,
    title: null,
    targetId: null,
    targetType: null,
    targetTitle: null,
    authorId,
    authorUsername: authorUsername ?? '',
    data,
  };
}

/**
 * GitLab 7.14's Event#action_name for issue and merge request events: "closed", "accepted" for a
 * merge, and "opened" for anything else, a reopen included (app/models/event.rb).
 */
const issuableActionName = (action: string): string =>
  action === 'closed' ? 'closed' : action === 'merged' ? 'accepted' : 'opened';

/**
 * Which domain events show in a project's feed, and how (GitLab's Event model: the action, its
 * author, its target). GitLab's joined and left events are authored by the member, not by whoever
 * made the change; system notes stay out of the feed.
 */
export function feedEntryOf(known: KnownEvent): FeedEntry | FeedEntry[] | null {
  switch (known.key) {
    case 'projects:project.created': {
      // GitLab 7.14 recorded `created`, then `joined` when it made the creator a Master
      // (Projects::CreateService); membership adds that row without a member.added of its own.
      const p = known.payload;
      const creatorId = p.facts.creatorId;
      const creatorUsername = p.creator_username ?? (creatorId === p.actor_id ? p.actor_username : null);
      return [
        entry(p.project_id, 'created', p.actor_id, p.actor_username),
        entry(p.project_id, 'joined', creatorId, creatorUsername),
      ].filter((e): e is FeedEntry => e !== null);
    }
    case 'membership:member.added':
    case 'membership:member.removed': {
      const p = known.payload;
      return entry(
        p.project_id,
        known.key === 'membership:member.added' ? 'joined' : 'left',
        p.user_id,
        p.user_username,
      );
    }
    case 'git_worker:push':
    case 'git_worker:tag_push': {
      // "pushed new" for a new ref, "deleted" for a removed one, "pushed to" otherwise, with the
      // push payload as data (the repository part is added on insert).
      const p = known.payload;
      const actionName = p.before === ZERO ? 'pushed new' : p.after === ZERO ? 'deleted' : 'pushed to';
      return entry(p.project_id, actionName, p.actor_id, p.actor_username, {
        before: p.before,
        after: p.after,
        ref: p.ref,
        user_id: p.actor_id,
        user_name: p.actor_username,
        commits: p.commits,
        total_commits_count: p.total_commits_count,
      });
    }
    case 'mergerequests:merge_request.opened':
    case 'mergerequests:merge_request.closed':
    case 'mergerequests:merge_request.reopened':
    case 'mergerequests:merge_request.merged': {
      const p = known.payload;
      const base = entry(p.project_id, issuableActionName(p.action), p.actor_id, p.actor_username);
      return base && { ...base, targetId: p.merge_request_id, targetType: 'MergeRequest', targetTitle: p.title };
    }
    case 'notes:issue.opened':
    case 'notes:issue.closed':
    case 'notes:issue.reopened': {
      const p = known.payload;
      const base = entry(p.project_id, issuableActionName(p.action), p.actor_id, p.actor_username);
      return base && { ...base, targetId: p.issue_id, targetType: 'Issue', targetTitle: p.title };
    }
    case 'notes:note.created': {
      const p = known.payload;
      if (p.system) return null;
      const base = entry(p.project_id, 'commented on', p.actor_id, p.actor_username);
      // A Note has no title, so GitLab's Event#target_title was nil for comments.
      return base && { ...base, targetId: p.note_id, targetType: 'Note', targetTitle: null };
    }
    default:
      return null;
  }
}

/**
 * Appends an entry to its project's feed, unless the project is gone: the project's last activity
 * moves to it, and `project_event.created` announces it on projects' stream, in the same
 * transaction, so the feed can be followed live (GraphQL subscriptions) and never announces an
 * entry that was not recorded.
 */
async function appendToFeed(tx: TransactionSql, entry: FeedEntry, createdAt: Date): Promise<void> {
  const eventId = await insertEvent(tx, { ...entry, createdAt });
  if (eventId === null) return;
  await touchActivity(tx, entry.projectId, createdAt);
  await projectsEvents.record(tx, 'project_event.created', {
    project_id: entry.projectId,
    event_id: eventId,
    action_name: entry.actionName,
    target_type: entry.targetType,
    target_id: entry.targetId,
    actor_id: entry.authorId,
    // The feed keeps '' for an author whose username the source event did not carry.
    actor_username: entry.authorUsername || null,
  });
}

/**
 * The events projects acts on: the feed, renamed namespaces, deleted users. Its own feed
 * announcements (`project_event.created`) come back on its stream and are passed over, as every
 * event that makes no feed entry.
 */
export function createEventHandler(deps: { sql: Sql; projects: ProjectsService; externalUrl: string; logger: Logger }) {
  const { sql } = deps;
  const read = createKnownEventReader(deps.logger);
  const urlsOf = projectUrlsAt(deps.externalUrl);
  /** GitLab's push data names the repository: its name, clone URL, description and home page. */
  const withRepository = async (entry: FeedEntry): Promise<FeedEntry> => {
    const data = entry.data as Record<string, unknown> | null;
    if (!data || !('ref' in data)) return entry;
    const project = await deps.projects.findProject(entry.projectId);
    if (!project) return entry;
    const urls = urlsOf(project);
    return {
      ...entry,
      data: {
        ...data,
        repository: {
          name: project.name,
          url: urls.httpUrlToRepo,
          description: project.description,
          homepage: urls.webUrl,
        },
      },
    };
  };
  return async (event: StreamedEvent): Promise<void> => {
    const known = read(event);
    if (!known) return;
    switch (known.key) {
      case 'identity:group.deleted':
        await deps.projects.removeInNamespace(known.payload.group_id);
        return;
      case 'identity:user.deleted':
        await deps.projects.removeOwnedBy(known.payload.user_id);
        return;
      case 'identity:user.created':
      case 'identity:user.updated':
      case 'identity:user.private_token_reset':
      case 'identity:user.blocked':
      case 'identity:user.unblocked':
        // A rename moves the personal namespace; a new name or state changes the owner's profile.
        await deps.projects.refreshOwner(known.payload.user_id);
        return;
    }
    const built = feedEntryOf(known);
    if (!built) return;
    const entries = await Promise.all((Array.isArray(built) ? built : [built]).map(withRepository));
    if (entries.length === 0) return;
    const createdAt = new Date(event.occurredAt);
    await handleOnce(sql, event, async (tx: TransactionSql) => {
      for (const entry of entries) await appendToFeed(tx, entry, createdAt);
    });
  };
}
