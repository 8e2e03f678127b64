import type { KnownEvent, MergeRequestAttributes } from '@hub/common';
import type { EventFlag } from '../db/hooks';

/** A commit as push events carry it. */
export interface PushCommit {
  id: string;
  message: string;
  timestamp: string | null;
  author: { name: string; email: string };
}

/** The domain events project hooks react to, in the terms payloads are built from. */
export type HookEvent =
  | {
      kind: 'push' | 'tag_push';
      projectId: number;
      actorId: number | null;
      before: string;
      after: string;
      ref: string;
      checkoutSha: string | null;
      /** A tag push's annotation; null for branches and lightweight tags. */
      message: string | null;
      commits: PushCommit[];
      totalCommitsCount: number;
    }
  | {
      kind: 'issue';
      projectId: number;
      actorId: number | null;
      action: string;
      attributes: Record<string, unknown> & { iid: number };
    }
  | {
      kind: 'merge_request';
      projectId: number;
      actorId: number | null;
      action: string;
      attributes: MergeRequestAttributes;
    }
  | {
      kind: 'note';
      projectId: number;
      actorId: number | null;
      noteableType: 'Issue' | 'MergeRequest' | 'Snippet' | 'Commit';
      note: Record<string, unknown> & { id: number };
      noteable: Record<string, unknown> | null;
    };

type HookEventKind = HookEvent['kind'];

/** Per kind: the hook flag that asks for it and the X-Gitlab-Event header it goes out with. */
export const HOOK_KINDS: Record<HookEventKind, { flag: EventFlag; eventName: string }> = {
  push: { flag: 'pushEvents', eventName: 'Push Hook' },
  tag_push: { flag: 'tagPushEvents', eventName: 'Tag Push Hook' },
  issue: { flag: 'issuesEvents', eventName: 'Issue Hook' },
  merge_request: { flag: 'mergeRequestsEvents', eventName: 'Merge Request Hook' },
  note: { flag: 'noteEvents', eventName: 'Note Hook' },
};

/** GitLab's hook `action` for each state change its services announce. */
const ACTIONS: Record<string, string> = {
  opened: 'open',
  closed: 'close',
  reopened: 'reopen',
  merged: 'merge',
  updated: 'update',
};

/** The hook event a (checked, typed) domain event stands for, or null when hooks do not send it. */
export function readHookEvent(known: KnownEvent): HookEvent | null {
  switch (known.key) {
    case 'git_worker:push':
    case 'git_worker:tag_push': {
      const p = known.payload;
      return {
        kind: known.key === 'git_worker:push' ? 'push' : 'tag_push',
        projectId: p.project_id,
        actorId: p.actor_id,
        before: p.before,
        after: p.after,
        ref: p.ref,
        checkoutSha: p.checkout_sha,
        message: p.message,
        commits: p.commits,
        totalCommitsCount: p.total_commits_count,
      };
    }
    case 'notes:issue.opened':
    case 'notes:issue.updated':
    case 'notes:issue.closed':
    case 'notes:issue.reopened': {
      const p = known.payload;
      return {
        kind: 'issue',
        projectId: p.project_id,
        actorId: p.actor_id,
        action: ACTIONS[p.action] ?? p.action,
        attributes: p.attributes,
      };
    }
    case 'mergerequests:merge_request.opened':
    case 'mergerequests:merge_request.updated':
    case 'mergerequests:merge_request.closed':
    case 'mergerequests:merge_request.reopened':
    case 'mergerequests:merge_request.merged': {
      const p = known.payload;
      return {
        kind: 'merge_request',
        projectId: p.project_id,
        actorId: p.actor_id,
        action: ACTIONS[p.action] ?? p.action,
        attributes: p.attributes,
      };
    }
    case 'notes:note.created': {
      // GitLab's note hooks fire when someone comments; system notes and edits send nothing.
      const p = known.payload;
      if (p.system) return null;
      return {
        kind: 'note',
        projectId: p.project_id,
        actorId: p.actor_id,
        noteableType: p.noteable_type,
        note: p.note,
        noteable: p.noteable,
      };
    }
    default:
      return null;
  }
}
