import { handleOnce, type Sql, type StreamedEvent, type TransactionSql } from '@hub/common';
import { insertEvent, type EventInsert } from './db/events';
import { touchActivity } from './db/projects';
import { projectUrls } from './domain/project-urls';
import type { ProjectsService } from './projects-service';

type FeedEntry = Omit<EventInsert, 'createdAt'>;
const num = (value: unknown) => (typeof value === 'number' ? value : Number(value));
const str = (value: unknown) => (typeof value === 'string' ? value : null);

/** A feed entry without a target, authored by the payload's actor or (for joined and left) member. */
function entry(p: Record<string, unknown>, actionName: string, author: 'actor' | 'user', data: unknown = null): FeedEntry | null {
  if (p[`${author}_id`] == null) return null;
  return {
    projectId: num(p.project_id),
    actionName,
    title: null,
    targetId: null,
    targetType: null,
    targetTitle: null,
    authorId: num(p[`${author}_id`]),
    authorUsername: str(p[`${author}_username`]) ?? '',
    data,
  };
}

/** GitLab's joined and left events are authored by the member, not by whoever made the change. */
const projectEntry = (actionName: string, author: 'actor' | 'user') => (p: Record<string, unknown>) => entry(p, actionName, author);

const ZERO = '0'.repeat(40);

/**
 * A push, as GitLab's feed showed it: "pushed new" for a new ref, "deleted" for a removed one,
 * "pushed to" otherwise, with the push payload as data (the repository part is added on insert).
 */
function pushEntry(p: Record<string, unknown>): FeedEntry | null {
  const actionName = p.before === ZERO ? 'pushed new' : p.after === ZERO ? 'deleted' : 'pushed to';
  return entry(p, actionName, 'actor', {
    before: p.before,
    after: p.after,
    ref: p.ref,
    user_id: p.actor_id,
    user_name: p.actor_username,
    commits: p.commits,
    total_commits_count: p.total_commits_count,
  });
}

/** A merge request opened, closed, reopened or merged: GitLab's target fields name it. */
function mergeRequestEntry(p: Record<string, unknown>): FeedEntry | null {
  const base = entry(p, String(p.action), 'actor');
  return base && { ...base, targetId: num(p.merge_request_id), targetType: 'MergeRequest', targetTitle: str(p.title) };
}

/** An issue opened, closed or reopened. */
function issueEntry(p: Record<string, unknown>): FeedEntry | null {
  const base = entry(p, String(p.action), 'actor');
  return base && { ...base, targetId: num(p.issue_id), targetType: 'Issue', targetTitle: str(p.title) };
}

/** A comment: GitLab's "commented on", targeting the note (system notes stay out of the feed). */
function noteEntry(p: Record<string, unknown>): FeedEntry | null {
  if (p.system === true) return null;
  const base = entry(p, 'commented on', 'actor');
  return base && { ...base, targetId: num(p.note_id), targetType: 'Note', targetTitle: str(p.body)?.slice(0, 100) ?? null };
}

/**
 * Which domain events show in a project's feed, and how (GitLab's Event model: the action, its
 * author, its target). Services added later extend this table with their own events.
 */
const FEED: Record<string, (payload: Record<string, unknown>) => FeedEntry | null> = {
  'projects:project.created': projectEntry('created', 'actor'),
  'membership:member.added': projectEntry('joined', 'user'),
  'membership:member.removed': projectEntry('left', 'user'),
  'git_worker:push': pushEntry,
  'git_worker:tag_push': pushEntry,
  'mergerequests:merge_request.opened': mergeRequestEntry,
  'mergerequests:merge_request.closed': mergeRequestEntry,
  'mergerequests:merge_request.reopened': mergeRequestEntry,
  'mergerequests:merge_request.merged': mergeRequestEntry,
  'notes:note.created': noteEntry,
  'notes:issue.opened': issueEntry,
  'notes:issue.closed': issueEntry,
  'notes:issue.reopened': issueEntry,
};

/** The events projects acts on: the feed, renamed namespaces, deleted users. */
export function createEventHandler(deps: { sql: Sql; projects: ProjectsService; externalUrl: string }) {
  const { sql } = deps;
  /** GitLab's push data names the repository: its name, clone URL, description and home page. */
  const withRepository = async (entry: FeedEntry): Promise<FeedEntry> => {
    const data = entry.data as Record<string, unknown> | null;
    if (!data || !('ref' in data)) return entry;
    const project = await deps.projects.findProject(entry.projectId);
    if (!project) return entry;
    const urls = projectUrls(project, deps.externalUrl);
    return { ...entry, data: { ...data, repository: { name: project.name, url: urls.httpUrlToRepo, description: project.description, homepage: urls.webUrl } } };
  };
  return async (event: StreamedEvent): Promise<void> => {
    const key = `${event.service}:${event.type}`;
    const feed = FEED[key];
    if (feed) {
      const built = feed(event.payload);
      if (!built) return;
      const entry = await withRepository(built);
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
