import type { StreamedEvent } from '@hub/common';
import type { EventFlag } from '../db/hooks';

/** A commit as push events carry it (the git worker's push payload). */
export interface PushCommit {
  id: string;
  message: string;
  timestamp: string | null;
  author: { name: string; email: string };
}

/** The domain events project hooks react to, read and checked at this service's edge. */
export type HookEvent =
  | {
      kind: 'push' | 'tag_push';
      projectId: number;
      actorId: number | null;
      before: string;
      after: string;
      ref: string;
      checkoutSha: string | null;
      commits: PushCommit[];
      totalCommitsCount: number;
    }
  | { kind: 'issue' | 'merge_request'; projectId: number; actorId: number | null; action: string; attributes: Record<string, unknown> }
  | {
      kind: 'note';
      projectId: number;
      actorId: number | null;
      noteableType: 'Issue' | 'MergeRequest' | 'Snippet';
      note: Record<string, unknown>;
      noteable: Record<string, unknown> | null;
    };

export type HookEventKind = HookEvent['kind'];

/** Per kind: the hook flag that asks for it and the X-Gitlab-Event header it goes out with. */
export const HOOK_KINDS: Record<HookEventKind, { flag: EventFlag; eventName: string }> = {
  push: { flag: 'pushEvents', eventName: 'Push Hook' },
  tag_push: { flag: 'tagPushEvents', eventName: 'Tag Push Hook' },
  issue: { flag: 'issuesEvents', eventName: 'Issue Hook' },
  merge_request: { flag: 'mergeRequestsEvents', eventName: 'Merge Request Hook' },
  note: { flag: 'noteEvents', eventName: 'Note Hook' },
};

/** GitLab's hook `action` for each state change its services announce. */
const ACTIONS: Record<string, string> = { opened: 'open', closed: 'close', reopened: 'reopen', merged: 'merge', updated: 'update' };

/** Thrown for an event of a handled type whose payload is not what this service can read. */
export class UnreadableEvent extends Error {}

const int = (value: unknown, name: string): number => {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new UnreadableEvent(`${name} is not an integer`);
  return value;
};
const intOrNull = (value: unknown, name: string) => (value === null || value === undefined ? null : int(value, name));
const str = (value: unknown, name: string): string => {
  if (typeof value !== 'string') throw new UnreadableEvent(`${name} is not a string`);
  return value;
};
const record = (value: unknown, name: string): Record<string, unknown> => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UnreadableEvent(`${name} is not an object`);
  return value as Record<string, unknown>;
};

function commitsOf(value: unknown): PushCommit[] {
  if (!Array.isArray(value)) throw new UnreadableEvent('commits is not an array');
  return value.map((c, i) => {
    const commit = record(c, `commits[${i}]`);
    const author = record(commit.author ?? {}, `commits[${i}].author`);
    return {
      id: str(commit.id, 'commit id'),
      message: str(commit.message ?? '', 'commit message'),
      timestamp: typeof commit.timestamp === 'string' ? commit.timestamp : null,
      author: { name: String(author.name ?? ''), email: String(author.email ?? '') },
    };
  });
}

/**
 * The hook event an entry of the streams stands for, or null when hooks do not care about it.
 * Throws UnreadableEvent when a handled type carries a payload this service cannot read.
 */
export function readHookEvent(event: StreamedEvent): HookEvent | null {
  const p = event.payload;
  const key = `${event.service}:${event.type}`;
  if (key === 'git_worker:push' || key === 'git_worker:tag_push') {
    return {
      kind: event.type as 'push' | 'tag_push',
      projectId: int(p.project_id, 'project_id'),
      actorId: intOrNull(p.actor_id, 'actor_id'),
      before: str(p.before, 'before'),
      after: str(p.after, 'after'),
      ref: str(p.ref, 'ref'),
      checkoutSha: p.checkout_sha == null ? null : str(p.checkout_sha, 'checkout_sha'),
      commits: commitsOf(p.commits),
      totalCommitsCount: int(p.total_commits_count, 'total_commits_count'),
    };
  }
  const [, service, noun, verb] = /^(notes|mergerequests):(issue|merge_request|note)\.(\w+)$/.exec(key) ?? [];
  if (!service) return null;
  if ((noun === 'issue' && service === 'notes') || (noun === 'merge_request' && service === 'mergerequests')) {
    if (!ACTIONS[verb]) return null;
    return { kind: noun, projectId: int(p.project_id, 'project_id'), actorId: intOrNull(p.actor_id, 'actor_id'), action: ACTIONS[verb], attributes: record(p.attributes, 'attributes') };
  }
  // GitLab's note hooks fire when someone comments; system notes and edits send nothing.
  if (noun === 'note' && service === 'notes' && verb === 'created' && p.system !== true) {
    const noteableType = str(p.noteable_type, 'noteable_type');
    if (noteableType !== 'Issue' && noteableType !== 'MergeRequest' && noteableType !== 'Snippet') throw new UnreadableEvent(`noteable_type ${noteableType}`);
    return {
      kind: 'note',
      projectId: int(p.project_id, 'project_id'),
      actorId: intOrNull(p.actor_id, 'actor_id'),
      noteableType,
      note: record(p.note, 'note'),
      noteable: p.noteable == null ? null : record(p.noteable, 'noteable'),
    };
  }
  return null;
}
