import {
  createKnownEventReader,
  createLogger,
  type ProjectSummary,
  type StreamedEvent,
  type UserSummary,
} from '@hub/common';
import { readSystemEvents, type SystemEvent } from './system-events';
import { buildSystemPayload, systemLookups, xmlschema, type SystemPayloadContext } from './system-payloads';

const read = createKnownEventReader(createLogger('system-payloads-test', 'silent'));
const at = '2026-03-04T05:06:07.891Z';
const systemEventsOf = (service: string, type: string, payload: Record<string, unknown>): SystemEvent[] => {
  const event: StreamedEvent = { id: '42', streamId: '1-0', service, type, payload, occurredAt: at };
  const known = read(event);
  return known ? readSystemEvents(known) : [];
};

const alice: UserSummary = {
  id: 7,
  username: 'alice',
  name: 'Alice Liddell',
  state: 'active',
  email: 'alice@hub.test',
  avatarUrl: null,
};
const bob: UserSummary = {
  id: 8,
  username: 'bob',
  name: 'Bob Builder',
  state: 'active',
  email: 'bob@hub.test',
  avatarUrl: null,
};
const project = (id: number, namespace: string, visibilityLevel = 0): ProjectSummary => ({
  id,
  name: 'App',
  path: 'app',
  pathWithNamespace: `${namespace}/app`,
  namespaceName: namespace,
  nameWithNamespace: `${namespace} / App`,
  description: null,
  defaultBranch: 'master',
  visibilityLevel,
  webUrl: `http://hub.test/${namespace}/app`,
  httpUrlToRepo: `http://hub.test/${namespace}/app.git`,
  sshUrlToRepo: `git@hub.test:${namespace}/app.git`,
  repositoryStorage: 'default',
});
const context: SystemPayloadContext = {
  users: new Map([
    [7, alice],
    [8, bob],
  ]),
  projects: new Map([
    [3, project(3, 'alice', 20)],
    [4, project(4, 'rockets', 10)],
  ]),
};
const facts = (projectId: number, creatorId: number | null, ownerId: number | null) => ({
  projectId,
  ownerId,
  visibilityLevel: 20,
  archived: false,
  issuesEnabled: true,
  mergeRequestsEnabled: true,
  snippetsEnabled: false,
  wikiEnabled: true,
  version: 1,
  deleted: false,
  creatorId,
});
/** The namespace as projects' events carry it (`kind: null`: an event recorded before they did). */
type EventNamespace = { kind: 'user' | 'group' | null; name: string | null; ownerId: number | null };
const aliceNamespace: EventNamespace = { kind: 'user', name: 'alice', ownerId: 7 };
const rockets: EventNamespace = { kind: 'group', name: 'Rocket Team', ownerId: null };
const projectEvent = (
  projectId: number,
  namespaceId: number,
  pathWithNamespace: string,
  creatorId: number | null = 8,
  namespace: EventNamespace = aliceNamespace,
) => ({
  project_id: projectId,
  name: 'App',
  path: 'app',
  path_with_namespace: pathWithNamespace,
  namespace_id: namespaceId,
  actor_id: 8,
  actor_username: 'bob',
  facts: facts(projectId, creatorId, namespace.ownerId),
  forked_from_project_id: null,
  default_branch: 'master',
  import_url: null,
  creator_username: 'bob',
  ...(namespace.kind === null ? {} : { namespace_kind: namespace.kind, namespace_name: namespace.name }),
});
const payloadsOf = (service: string, type: string, payload: Record<string, unknown>) =>
  systemEventsOf(service, type, payload).map((event) => buildSystemPayload(event, context));

describe('GitLab 7.14 system hook payloads', () => {
  it("created_at as Ruby's xmlschema: whole seconds, Z", () => {
    expect(xmlschema(at)).toBe('2026-03-04T05:06:07Z');
  });

  it("project_create: the owner's name and email, the visibility by name, then the creator joining as Master", () => {
    const [created, joined] = payloadsOf('projects', 'project.created', projectEvent(3, 11, 'alice/app'));
    expect(created).toEqual({
      event_name: 'project_create',
      created_at: '2026-03-04T05:06:07Z',
      name: 'App',
      path: 'app',
      path_with_namespace: 'alice/app',
      project_id: 3,
      owner_name: 'Alice Liddell',
      owner_email: 'alice@hub.test',
      project_visibility: 'public',
    });
    expect(Object.keys(created!)).toEqual([
      'event_name',
      'created_at',
      'name',
      'path',
      'path_with_namespace',
      'project_id',
      'owner_name',
      'owner_email',
      'project_visibility',
    ]);
    expect(joined).toEqual({
      event_name: 'user_add_to_team',
      created_at: '2026-03-04T05:06:07Z',
      project_name: 'App',
      project_path: 'app',
      project_id: 3,
      user_name: 'Bob Builder',
      user_email: 'bob@hub.test',
      access_level: 'Master',
      project_visibility: 'public',
    });
    expect(
      systemEventsOf('projects', 'project.created', projectEvent(3, 11, 'alice/app')).map((e) => e.keySuffix),
    ).toEqual(['', ':creator']);
  });

  it("a group's project: the group is the owner (no email), and the creator gets no team event", () => {
    const payloads = payloadsOf('projects', 'project.created', projectEvent(4, 12, 'rockets/app', 8, rockets));
    expect(payloads[0]).toMatchObject({ event_name: 'project_create', owner_name: 'Rocket Team', owner_email: '' });
    expect(payloads[1] ?? null).toBeNull();
    // Nothing to send, so nothing made: the event alone says it is a group's project.
    expect(payloads).toHaveLength(1);
    expect(
      systemEventsOf('projects', 'project.created', projectEvent(4, 12, 'rockets/app', 8, rockets)).flatMap(
        systemLookups,
      ),
    ).toEqual([{ users: [], projects: [] }]);
  });

  it("events recorded before projects sent the namespace: a group's project (no owner) by its path, a user's by the owner", () => {
    const [groupProject] = payloadsOf(
      'projects',
      'project.deleted',
      projectEvent(4, 13, 'old-team/app', 8, { kind: null, name: null, ownerId: null }),
    );
    expect(groupProject).toMatchObject({ owner_name: 'old-team', owner_email: '' });
    const [userProject] = payloadsOf(
      'projects',
      'project.deleted',
      projectEvent(4, 14, 'alice/app', 8, { kind: null, name: null, ownerId: 7 }),
    );
    expect(userProject).toMatchObject({ owner_name: 'Alice Liddell', owner_email: 'alice@hub.test' });
    // No kind sent: a project without an owner is a group's, and its creator joins no team.
    expect(
      payloadsOf(
        'projects',
        'project.created',
        projectEvent(4, 13, 'old-team/app', 8, { kind: null, name: null, ownerId: null }),
      ),
    ).toHaveLength(1);
    expect(
      payloadsOf(
        'projects',
        'project.created',
        projectEvent(3, 14, 'alice/app', 8, { kind: null, name: null, ownerId: 7 }),
      ),
    ).toHaveLength(2);
  });

  it("a project deleted with its user: the namespace's name from the event (the username), no email, never a group's", () => {
    const carol: EventNamespace = { kind: 'user', name: 'carol', ownerId: 9 };
    const [event] = systemEventsOf('projects', 'project.deleted', projectEvent(5, 15, 'carol/app', 9, carol));
    // Identity has deleted carol by now: the lookup asked for her finds nothing.
    expect(systemLookups(event)).toEqual({ users: [9], projects: [] });
    expect(buildSystemPayload(event, context)).toMatchObject({
      event_name: 'project_destroy',
      path_with_namespace: 'carol/app',
      owner_name: 'carol',
      owner_email: '',
    });
    // A user who is still there is named and mailed, as Project#owner did.
    const [kept] = systemEventsOf(
      'projects',
      'project.deleted',
      projectEvent(5, 15, 'carol/app', 9, { ...carol, ownerId: 8 }),
    );
    expect(buildSystemPayload(kept, context)).toMatchObject({ owner_name: 'Bob Builder', owner_email: 'bob@hub.test' });
  });

  it("a project deleted with its group: the group's name from the event, not its path, asking nobody", () => {
    const gone: EventNamespace = { kind: 'group', name: 'Gone Team', ownerId: null };
    const [event] = systemEventsOf('projects', 'project.deleted', projectEvent(6, 16, 'gone-team/app', 8, gone));
    expect(systemLookups(event)).toEqual({ users: [], projects: [] });
    expect(buildSystemPayload(event, context)).toMatchObject({
      event_name: 'project_destroy',
      path_with_namespace: 'gone-team/app',
      owner_name: 'Gone Team',
      owner_email: '',
    });
  });

  it("project_destroy from the deleted project's own event (it cannot be looked up any more)", () => {
    const {
      forked_from_project_id: _f,
      default_branch: _d,
      import_url: _i,
      creator_username: _c,
      ...deleted
    } = projectEvent(99, 11, 'alice/gone');
    const payloads = payloadsOf('projects', 'project.deleted', {
      ...deleted,
      path: 'gone',
      created_at: '2025-01-01T00:00:00.000Z',
    });
    expect(payloads).toEqual([
      expect.objectContaining({
        event_name: 'project_destroy',
        created_at: '2025-01-01T00:00:00Z',
        project_id: 99,
        path: 'gone',
        owner_name: 'Alice Liddell',
        project_visibility: 'public',
      }),
    ]);
  });

  it("user_create and user_destroy, with the user's own created_at where the event has it", () => {
    const user = { user_id: 8, username: 'bob', email: 'bob@hub.test', name: 'Bob Builder', is_admin: false };
    expect(payloadsOf('identity', 'user.created', user)).toEqual([
      {
        event_name: 'user_create',
        created_at: '2026-03-04T05:06:07Z',
        name: 'Bob Builder',
        email: 'bob@hub.test',
        user_id: 8,
      },
    ]);
    expect(
      payloadsOf('identity', 'user.deleted', { ...user, created_at: '2025-12-31T23:59:59.999Z' })[0],
    ).toMatchObject({ event_name: 'user_destroy', user_id: 8, created_at: '2025-12-31T23:59:59Z' });
    expect(payloadsOf('identity', 'user.updated', user)).toEqual([]);
  });

  it('user_add_to_team and user_remove_from_team with the human access level; nothing for a project that is gone', () => {
    const member = {
      project_id: 4,
      user_id: 8,
      user_username: 'bob',
      access_level: 30,
      actor_id: 7,
      actor_username: 'alice',
    };
    expect(payloadsOf('membership', 'member.added', member)).toEqual([
      {
        event_name: 'user_add_to_team',
        created_at: '2026-03-04T05:06:07Z',
        project_name: 'App',
        project_path: 'app',
        project_id: 4,
        user_name: 'Bob Builder',
        user_email: 'bob@hub.test',
        access_level: 'Developer',
        project_visibility: 'internal',
      },
    ]);
    expect(payloadsOf('membership', 'member.removed', { ...member, access_level: 10 })[0]).toMatchObject({
      event_name: 'user_remove_from_team',
      access_level: 'Guest',
    });
    expect(payloadsOf('membership', 'member.updated', member)).toEqual([]);
    expect(payloadsOf('membership', 'member.added', { ...member, project_id: 5 })).toEqual([null]);
  });

  it('group_create/destroy and user_add_to_group/remove_from_group', () => {
    const group = {
      group_id: 12,
      name: 'Rocket Team',
      path: 'rockets',
      description: '',
      owner_id: 7,
      owner_username: 'alice',
      owner_email: 'alice@hub.test',
      owner_name: 'Alice Liddell',
      actor_id: 7,
      actor_username: 'alice',
    };
    expect(payloadsOf('identity', 'group.created', group)).toEqual([
      {
        event_name: 'group_create',
        created_at: '2026-03-04T05:06:07Z',
        name: 'Rocket Team',
        path: 'rockets',
        group_id: 12,
        owner_name: 'Alice Liddell',
        owner_email: 'alice@hub.test',
      },
    ]);
    expect(payloadsOf('identity', 'group.deleted', group)[0]).toMatchObject({
      event_name: 'group_destroy',
      group_id: 12,
    });
    const member = {
      group_id: 12,
      group_name: 'Rocket Team',
      group_path: 'rockets',
      user_id: 8,
      user_username: 'bob',
      user_name: null,
      user_email: null,
      access_level: 50,
      actor_id: 7,
      actor_username: 'alice',
    };
    const [added] = systemEventsOf('membership', 'group_member.added', member);
    // A member event without the user's name and email looks them up.
    expect(systemLookups(added).users).toEqual([8]);
    expect(buildSystemPayload(added, context)).toEqual({
      event_name: 'user_add_to_group',
      created_at: '2026-03-04T05:06:07Z',
      group_name: 'Rocket Team',
      group_path: 'rockets',
      group_id: 12,
      user_name: 'Bob Builder',
      user_email: 'bob@hub.test',
      user_id: 8,
      group_access: 'Owner',
    });
    expect(
      payloadsOf('membership', 'group_member.removed', {
        ...member,
        user_name: 'B',
        user_email: 'b@x',
        access_level: 20,
      })[0],
    ).toMatchObject({
      event_name: 'user_remove_from_group',
      user_name: 'B',
      user_email: 'b@x',
      group_access: 'Reporter',
    });
  });

  it("key_create and key_destroy with the key's own created_at; a deploy key as GitLab 7.14 named it (deploykey_*, no username)", () => {
    const key = {
      key_id: 5,
      kind: 'user',
      title: 'laptop',
      key: 'ssh-ed25519 AAAA',
      fingerprint: 'aa:bb',
      user_id: 8,
      username: 'bob',
      created_at: '2026-01-02T03:04:05.678Z',
    };
    const [created] = payloadsOf('identity', 'key.created', key);
    expect(created).toEqual({
      event_name: 'key_create',
      created_at: '2026-01-02T03:04:05Z',
      key: 'ssh-ed25519 AAAA',
      id: 5,
      username: 'bob',
    });
    expect(Object.keys(created!)).toEqual(['event_name', 'created_at', 'key', 'id', 'username']);
    expect(payloadsOf('identity', 'key.deleted', key)[0]).toMatchObject({ event_name: 'key_destroy', id: 5 });
    expect(payloadsOf('identity', 'key.created', { ...key, kind: 'deploy', user_id: null, username: null })).toEqual([
      { event_name: 'deploykey_create', created_at: '2026-01-02T03:04:05Z', key: 'ssh-ed25519 AAAA', id: 5 },
    ]);
  });

  it("no system events from project hooks' events, nor from a project's feed entries", () => {
    expect(
      systemEventsOf('projects', 'project_event.created', {
        v: 1,
        project_id: 1,
        event_id: 12,
        action_name: 'opened',
        target_type: 'Issue',
        target_id: 5,
        actor_id: 1,
        actor_username: 'r',
      }),
    ).toEqual([]);
    expect(
      systemEventsOf('notes', 'snippet.created', {
        project_id: 1,
        actor_id: 1,
        actor_username: 'r',
        snippet_id: 4,
        title: 's',
      }),
    ).toEqual([]);
  });
});
