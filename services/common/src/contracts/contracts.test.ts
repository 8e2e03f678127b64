import { Writable } from 'node:stream';
import pino from 'pino';
import {
  accessLookup,
  createKnownEventReader,
  groupAccessLookup,
  memberGroups,
  memberProjects,
  membershipEvents,
  mergeRequestAttributes,
  mergeRequestFind,
  namespacesLookup,
  issueAttributes,
  projectsLookup,
  usersLookup,
} from './index';
import type { StreamedEvent } from '../outbox';

const entry = (service: string, type: string, payload: Record<string, unknown>): StreamedEvent => ({
  id: '9',
  streamId: '9-0',
  service,
  type,
  payload,
  occurredAt: new Date().toISOString(),
});
const member = { project_id: 1, user_id: 2, user_username: 'u', access_level: 30, actor_id: 1, actor_username: 'root' };

/** A reader whose log lines are kept, to count what it reported. */
function reader() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  return { read: createKnownEventReader(pino({ level: 'info' }, sink) as never), lines };
}

describe("event contracts at the consumer's edge", () => {
  it('gives a declared event back checked and typed, under its key', () => {
    const { read } = reader();
    const known = read(entry('membership', 'member.added', { v: 1, ...member, extra: 'dropped' }));
    expect(known?.key).toBe('membership:member.added');
    expect(known?.payload).toEqual({ v: 1, ...member });
  });

  it('reads an event recorded before versions existed as version 1', () => {
    expect(reader().read(entry('membership', 'member.added', member))?.payload).toMatchObject({ v: 1 });
  });

  it('passes over types no contract declares, without a word', () => {
    const { read, lines } = reader();
    expect(read(entry('membership', 'member.promoted', member))).toBeNull();
    expect(read(entry('nobody', 'thing.happened', {}))).toBeNull();
    expect(lines).toHaveLength(0);
  });

  it('skips a payload it cannot read (a newer version, a missing field) and says so once per type', async () => {
    const { read, lines } = reader();
    expect(read(entry('membership', 'member.added', { ...member, v: 2 }))).toBeNull();
    expect(read(entry('membership', 'member.added', { ...member, user_id: 'two' }))).toBeNull();
    expect(read(entry('membership', 'member.removed', { ...member, project_id: undefined }))).toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => l.type)).toEqual(['membership:member.added', 'membership:member.removed']);
  });
});

describe('internal lookups', () => {
  // Callers pass on the ids their clients sent (a GraphQL Int, a v3 integer parameter): an id no
  // record can have must find nothing, not be refused (a refusal reached the client as a 500).
  it.each([
    ['users', usersLookup, { ids: [0, -1] }],
    ['namespaces', namespacesLookup, { ids: [0], ownerIds: [-1] }],
    ['projects', projectsLookup, { ids: [-2147483648] }],
    ['access', accessLookup, { userId: -1, projectIds: [0] }],
    ['member projects', memberProjects, { userId: 0 }],
    ['group access', groupAccessLookup, { userId: 0, groupIds: [-1] }],
    ['member groups', memberGroups, { userId: -1 }],
    ['merge request', mergeRequestFind, { projectId: 0, id: -1 }],
  ])('the %s lookup takes any 32-bit id', (_name, endpoint, request) => {
    expect(endpoint.request.safeParse(request).success).toBe(true);
  });

  it('answers a group asked by an id no group has under that id', () => {
    const answer = { access: [{ groupId: -1, level: null, readable: false }] };
    expect(groupAccessLookup.response.safeParse(answer).success).toBe(true);
  });

  it('refuses what no client can send, and events still carry positive ids only', () => {
    expect(usersLookup.request.safeParse({ ids: [2 ** 31] }).success).toBe(false);
    expect(usersLookup.request.safeParse({ ids: [1.5] }).success).toBe(false);
    expect(membershipEvents.schemas['member.added'].safeParse({ ...member, user_id: 0 }).success).toBe(false);
  });
});

describe('assignees as stored', () => {
  // GitLab kept assignee_id as the client sent it; no user has 0 or a negative id, so it shows as
  // none. Refused here, it made the issuable's events unreadable and its notes answer 500.
  const mr = {
    id: 3,
    iid: 1,
    project_id: 5,
    target_project_id: 5,
    source_project_id: 5,
    target_branch: 'master',
    source_branch: 'feature',
    title: 't',
    description: '',
    state: 'opened',
    author_id: 1,
    milestone_id: null,
    merge_status: 'can_be_merged',
    merge_commit_sha: null,
    work_in_progress: false,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
  const issue = { ...mr, labels: [] } as Record<string, unknown>;
  for (const key of ['target_project_id', 'source_project_id', 'target_branch', 'source_branch']) delete issue[key];
  for (const key of ['merge_status', 'merge_commit_sha', 'work_in_progress']) delete issue[key];

  it.each([0, -1, null, 7])('carries assignee_id %p in a merge request and an issue', (assignee) => {
    expect(
      mergeRequestFind.response.safeParse({ found: true, attributes: { ...mr, assignee_id: assignee } }).success,
    ).toBe(true);
    expect(issueAttributes.safeParse({ ...issue, assignee_id: assignee }).success).toBe(true);
  });

  it('still refuses what no client can send', () => {
    expect(mergeRequestAttributes.safeParse({ ...mr, assignee_id: 2 ** 31 }).success).toBe(false);
    expect(issueAttributes.safeParse({ ...issue, assignee_id: 1.5 }).success).toBe(false);
  });
});
