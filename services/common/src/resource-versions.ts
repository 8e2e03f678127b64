import { randomBytes } from 'node:crypto';
import type { ChainableCommander } from 'ioredis';
import type { Redis } from './redis';

/**
 * Versions of what answers show, kept in Redis and advanced by events: the REST facade builds the
 * ETag of a polled route from them and answers 304 without asking a subgraph (GitLab's ETag
 * caching for polling). A version is an opaque stamp; only its change matters. Three scopes:
 * - one project: anything recorded about it (its settings, team, pushes, issues, merge requests,
 *   notes, milestones, protected branches) and what consumers derive from that (its feed, its
 *   last activity, its members' access);
 * - the project catalog: projects made, changed or removed (lists; a fork's parent; paths);
 * - project activity: any event about any project (lists order and show last activity);
 * - the directory: users, groups and their members, settings (names, avatars, admins, paths).
 */
export const projectVersionKey = (projectId: number) => `versions:project:${projectId}`;
export const PROJECT_CATALOG_VERSION = 'versions:projects:catalog';
export const PROJECT_ACTIVITY_VERSION = 'versions:projects:activity';
export const DIRECTORY_VERSION = 'versions:directory';

/**
 * Versions expire unused after this long; a reader then starts the key afresh, which changes the
 * tags built on it once (a full answer), never keeps a stale one.
 */
export const VERSION_TTL_S = 7 * 24 * 3600;

/** The event fields that name a project whose answers the event changes. */
const PROJECT_FIELDS = ['project_id', 'target_project_id', 'source_project_id'] as const;

/**
 * What changes users or groups as answers show them (names, states, admins, paths) or as settings
 * shape them. A user or group made, a key, a token reset change nothing already shown: the tags
 * of busy installations would otherwise change with every sign-up.
 */
const DIRECTORY_EVENTS = new Set([
  'identity:user.updated',
  'identity:user.deleted',
  'identity:user.blocked',
  'identity:user.unblocked',
  'identity:group.updated',
  'identity:group.deleted',
  'identity:settings.updated',
]);

/**
 * Events that announce what a consumer derived from another event, which advanced its versions
 * already. A feed entry (`project_event.created`) is appended by projects while it handles the event
 * it comes from (an issue opened, a push, a member added: each names the project); the acknowledgement
 * of that event advances the project and project activity once the entry is visible. Advancing them
 * again, and the catalog (every event of projects' stream does), would only retire tags that are
 * still true, for every busy project on every feed entry.
 */
const DERIVED_EVENTS = new Set(['projects:project_event.created']);

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * Producers whose events change no answer a polled route shows: hook delivery attempts carry a
 * project_id, but the delivery logs are not ETag-cached and a project's activity ignores them, so
 * a busy hook must not turn over its project's tags with every attempt.
 */
const UNSHOWN_SERVICES = new Set(['hooks']);

/**
 * The versions an event advances (see above); none for events that change nothing shown (keys,
 * hook delivery attempts) or derive from one that did (feed entries).
 */
export function versionKeysOf(event: { service: string; type: string; payload: Record<string, unknown> }): string[] {
  if (UNSHOWN_SERVICES.has(event.service) || DERIVED_EVENTS.has(`${event.service}:${event.type}`)) return [];
  const keys = new Set<string>();
  for (const field of PROJECT_FIELDS) {
    const id = event.payload[field];
    if (isId(id)) keys.add(projectVersionKey(id));
  }
  if (keys.size > 0) keys.add(PROJECT_ACTIVITY_VERSION);
  if (event.service === 'projects') keys.add(PROJECT_CATALOG_VERSION);
  if (DIRECTORY_EVENTS.has(`${event.service}:${event.type}`) || event.type.startsWith('group_member.'))
    keys.add(DIRECTORY_VERSION);
  return [...keys];
}

/** A fresh version: unique enough that two changes never share one. */
export const newVersionStamp = () => randomBytes(9).toString('base64url');

/**
 * Fresh versions for a hot path (every conditional read offers one for keys not started yet): a
 * random prefix drawn once and a counter, as unique as newVersionStamp's without drawing random
 * bytes per call. Ends with a separator, so a suffix appended to it cannot make another's.
 */
export function createVersionStamps(): () => string {
  const prefix = newVersionStamp();
  let issued = 0;
  return () => `${prefix}.${(issued++).toString(36)}.`;
}

/** Queues, on the caller's MULTI or pipeline, the commands that advance `keys` to a new stamp. */
export function touchVersions(batch: ChainableCommander, keys: readonly string[]): ChainableCommander {
  const stamp = newVersionStamp();
  for (const key of keys) batch.set(key, stamp, 'EX', VERSION_TTL_S);
  return batch;
}

/**
 * Advances `keys` once more a second after an event was relayed. Consumers apply an event's consequences
 * moments after it is relayed (access caches dropped, feeds written): an answer built in between
 * shows the old state under the new version, and the second advance retires its tag. Best effort:
 * Redis being away fails the event's relay or acknowledgement, which are retried.
 */
export function settleVersions(redis: Redis, keys: readonly string[], settleMs = 1000): void {
  if (keys.length === 0) return;
  const timer = setTimeout(
    () =>
      void touchVersions(redis.pipeline(), keys)
        .exec()
        .catch(() => {}),
    settleMs,
  );
  timer.unref();
}
