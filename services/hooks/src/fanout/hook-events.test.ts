import type { StreamedEvent } from '@hub/common';
import { readHookEvent, UnreadableEvent } from './hook-events';

const event = (service: string, type: string, payload: Record<string, unknown>): StreamedEvent => ({ id: '1', streamId: '1-0', service, type, payload, occurredAt: new Date().toISOString() });

describe('reading the events hooks react to', () => {
  it('maps each producer\'s event to a hook kind and GitLab action', () => {
    const attributes = { id: 5, iid: 1 };
    expect(readHookEvent(event('notes', 'issue.opened', { project_id: 3, actor_id: 2, attributes }))).toEqual({ kind: 'issue', projectId: 3, actorId: 2, action: 'open', attributes });
    expect(readHookEvent(event('notes', 'issue.updated', { project_id: 3, actor_id: 2, attributes }))).toMatchObject({ action: 'update' });
    expect(readHookEvent(event('mergerequests', 'merge_request.merged', { project_id: 3, actor_id: 2, attributes }))).toMatchObject({ kind: 'merge_request', action: 'merge' });
    const push = { project_id: 3, actor_id: null, before: 'a', after: 'b', ref: 'refs/tags/v1', checkout_sha: 'b', commits: [{ id: 'c', message: 'm', timestamp: 't', author: { name: 'n', email: 'e' } }], total_commits_count: 1 };
    expect(readHookEvent(event('git_worker', 'tag_push', push))).toMatchObject({ kind: 'tag_push', actorId: null, commits: [{ id: 'c', author: { name: 'n', email: 'e' } }] });
  });

  it('ignores what hooks do not send: other services, snippets, system notes and edits of notes', () => {
    expect(readHookEvent(event('projects', 'project.created', { project_id: 1 }))).toBeNull();
    expect(readHookEvent(event('notes', 'snippet.created', { project_id: 1 }))).toBeNull();
    expect(readHookEvent(event('notes', 'note.created', { project_id: 1, system: true, noteable_type: 'Issue', note: {} }))).toBeNull();
    expect(readHookEvent(event('notes', 'note.updated', { project_id: 1, system: false, noteable_type: 'Issue', note: {} }))).toBeNull();
    // An issue event from a service that does not own issues is not an issue event.
    expect(readHookEvent(event('mergerequests', 'issue.opened', { project_id: 1, attributes: {} }))).toBeNull();
  });

  it('refuses a handled event whose payload it cannot read', () => {
    expect(() => readHookEvent(event('notes', 'issue.opened', { project_id: '3', attributes: {} }))).toThrow(UnreadableEvent);
    expect(() => readHookEvent(event('notes', 'issue.opened', { project_id: 3 }))).toThrow(UnreadableEvent);
    expect(() => readHookEvent(event('git_worker', 'push', { project_id: 3, before: 'a', after: 'b', ref: 'r', commits: 'none', total_commits_count: 0 }))).toThrow(UnreadableEvent);
    expect(() => readHookEvent(event('notes', 'note.created', { project_id: 3, noteable_type: 'Commit', note: {} }))).toThrow(UnreadableEvent);
  });
});
