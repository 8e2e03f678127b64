import { createKnownEventReader, createLogger, type StreamedEvent } from '@hub/common';
import { readHookEvent } from './hook-events';

const read = createKnownEventReader(createLogger('hook-events-test', 'silent'));
const event = (service: string, type: string, payload: Record<string, unknown>): StreamedEvent => ({
  id: '1',
  streamId: '1-0',
  service,
  type,
  payload,
  occurredAt: new Date().toISOString(),
});
const hookEventOf = (service: string, type: string, payload: Record<string, unknown>) => {
  const known = read(event(service, type, payload));
  return known && readHookEvent(known);
};

const at = '2026-01-01T00:00:00.000Z';
const issue = {
  id: 5,
  iid: 1,
  project_id: 3,
  title: 't',
  description: '',
  state: 'opened',
  author_id: 2,
  assignee_id: null,
  milestone_id: null,
  labels: [],
  created_at: at,
  updated_at: at,
};
const issueEvent = (action: string) => ({
  project_id: 3,
  actor_id: 2,
  actor_username: 'a',
  action,
  issue_id: 5,
  iid: 1,
  title: 't',
  state: 'opened',
  attributes: issue,
});
const mergeRequest = {
  id: 9,
  iid: 2,
  project_id: 3,
  target_project_id: 3,
  source_project_id: 3,
  target_branch: 'master',
  source_branch: 'f',
  title: 'm',
  description: '',
  state: 'merged',
  author_id: 2,
  assignee_id: null,
  milestone_id: null,
  merge_status: 'unchecked',
  merge_commit_sha: null,
  work_in_progress: false,
  created_at: at,
  updated_at: at,
  last_commit: null,
};
const note = (system: boolean) => ({
  project_id: 3,
  actor_id: 2,
  actor_username: 'a',
  note_id: 7,
  noteable_type: 'Issue',
  noteable_id: 5,
  body: 'b',
  system,
  note: {
    id: 7,
    note: 'b',
    noteable_type: 'Issue',
    noteable_id: 5,
    author_id: 2,
    project_id: 3,
    system,
    attachment: null,
    line_code: null,
    commit_id: null,
    st_diff: null,
    created_at: at,
    updated_at: at,
  },
  noteable: system ? null : issue,
});
const push = {
  project_id: 3,
  actor_id: null,
  actor_username: null,
  before: 'a',
  after: 'b',
  ref: 'refs/tags/v1',
  checkout_sha: 'b',
  message: 'Release 1',
  commits: [{ id: 'c', message: 'm', timestamp: 't', author: { name: 'n', email: 'e' } }],
  total_commits_count: 1,
  default_branch: 'master',
  first_push_to_default_branch: false,
};

describe('reading the events hooks react to', () => {
  it("maps each producer's event to a hook kind and GitLab action", () => {
    expect(hookEventOf('notes', 'issue.opened', issueEvent('opened'))).toEqual({
      kind: 'issue',
      projectId: 3,
      actorId: 2,
      action: 'open',
      attributes: issue,
    });
    expect(hookEventOf('notes', 'issue.updated', issueEvent('updated'))).toMatchObject({ action: 'update' });
    expect(
      hookEventOf('mergerequests', 'merge_request.merged', {
        ...issueEvent('merged'),
        merge_request_id: 9,
        source_project_id: 3,
        source_branch: 'f',
        target_branch: 'master',
        author_id: 2,
        assignee_id: null,
        merge_commit_sha: null,
        attributes: mergeRequest,
      }),
    ).toMatchObject({ kind: 'merge_request', action: 'merge', attributes: { id: 9 } });
    expect(hookEventOf('git_worker', 'tag_push', push)).toMatchObject({
      kind: 'tag_push',
      actorId: null,
      message: 'Release 1',
      commits: [{ id: 'c', author: { name: 'n', email: 'e' } }],
    });
    expect(hookEventOf('notes', 'note.created', note(false))).toMatchObject({
      kind: 'note',
      noteableType: 'Issue',
      note: { id: 7 },
      noteable: { id: 5 },
    });
  });

  it('ignores what hooks do not send: other events, system notes and edits of notes', () => {
    expect(
      hookEventOf('membership', 'member.added', {
        project_id: 1,
        user_id: 2,
        user_username: 'u',
        access_level: 30,
        actor_id: 1,
        actor_username: 'r',
      }),
    ).toBeNull();
    expect(
      hookEventOf('notes', 'snippet.created', {
        project_id: 1,
        actor_id: 1,
        actor_username: 'r',
        snippet_id: 4,
        title: 's',
      }),
    ).toBeNull();
    expect(hookEventOf('notes', 'note.created', note(true))).toBeNull();
    expect(hookEventOf('notes', 'note.updated', note(false))).toBeNull();
    // A feed entry's announcement (read, not refused) repeats what the issue event it came from sent already.
    const feedEntry = {
      v: 1,
      project_id: 1,
      event_id: 12,
      action_name: 'opened',
      target_type: 'Issue',
      target_id: 5,
      actor_id: 1,
      actor_username: 'r',
    };
    expect(read(event('projects', 'project_event.created', feedEntry))?.key).toBe('projects:project_event.created');
    expect(hookEventOf('projects', 'project_event.created', feedEntry)).toBeNull();
    // An issue event from a service that does not own issues is no issue event.
    expect(hookEventOf('mergerequests', 'issue.opened', issueEvent('opened'))).toBeNull();
  });

  it('skips a handled event whose payload breaks its contract, instead of failing', () => {
    expect(hookEventOf('notes', 'issue.opened', { ...issueEvent('opened'), project_id: '3' })).toBeNull();
    expect(hookEventOf('notes', 'issue.opened', { ...issueEvent('opened'), attributes: undefined })).toBeNull();
    expect(hookEventOf('git_worker', 'push', { ...push, commits: 'none' })).toBeNull();
    expect(hookEventOf('notes', 'note.created', { ...note(false), noteable_type: 'Wiki' })).toBeNull();
  });
});
