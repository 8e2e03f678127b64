import { createRedis, createSql } from '@hub/common';
import { Webhook } from 'standardwebhooks';
import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  graphql,
  stack,
  type TestProject,
  type TestUser,
} from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';
import { startReceiver, type ReceivedHook, type Receiver } from '../support/webhook-receiver';

const ZERO = '0'.repeat(40);
let receiver: Receiver;
let owner: TestUser;
let master: TestUser;
let developer: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: TestProject;

const hooksPath = (suffix = '', p: { id: number } = project) => `/projects/${p.id}/hooks${suffix}`;
const addHook = async (body: Record<string, unknown>, p: { id: number } = project, token = owner.token) => {
  const res = await api('POST', hooksPath('', p), { token, body });
  if (res.status !== 201) throw new Error(`creating a hook failed: ${res.status} ${res.text}`);
  return res.body as { id: number; signing_secret: string; [field: string]: unknown };
};

/** Checks a delivery's Standard Webhooks signature with the hook's secret (throws when it is wrong). */
const verify = (hook: { signing_secret: string }, delivery: ReceivedHook) =>
  new Webhook(hook.signing_secret).verify(delivery.text, delivery.headers as Record<string, string>);

beforeAll(async () => {
  receiver = await startReceiver();
  [owner, master, developer, guest, stranger] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  project = await createProject(owner.token);
  await addMember(project.id, master.id, 40);
  await addMember(project.id, developer.id, 30);
  await addMember(project.id, guest.id, 10);
});

afterAll(() => receiver.close());

describe('managing project hooks', () => {
  it('creates a hook with GitLab 7.14 defaults and the flags as strings, by id and by path', async () => {
    const res = await api('POST', hooksPath(), { token: master.token, body: { url: receiver.url('defaults') } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      url: receiver.url('defaults'),
      project_id: project.id,
      push_events: 'true',
      issues_events: 'false',
      merge_requests_events: 'false',
      tag_push_events: 'false',
      note_events: 'false',
      created_at: expect.any(String),
    });
    expect(res.body.signing_secret).toMatch(/^whsec_/);
    expect(res.body).not.toHaveProperty('token');
    const byPath = await api(
      'GET',
      `/projects/${encodeURIComponent(project.path_with_namespace)}/hooks/${res.body.id}`,
      { token: master.token },
    );
    expect([byPath.status, byPath.body.url]).toEqual([200, receiver.url('defaults')]);
    const list = await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}/hooks`, {
      token: owner.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.map((h: { id: number }) => h.id)).toContain(res.body.id);
    expect(list.headers.get('x-total')).toBe(String(list.body.length));
  });

  it('takes form-encoded flags and updates only what is sent; url is required on PUT too', async () => {
    const created = await api('POST', hooksPath(), {
      token: owner.token,
      body: new URLSearchParams({
        url: receiver.url('form'),
        issues_events: 'true',
        tag_push_events: '1',
        push_events: 'false',
      }),
    });
    expect(created.body).toMatchObject({
      push_events: 'false',
      issues_events: 'true',
      tag_push_events: 'true',
      merge_requests_events: 'false',
    });
    const missingUrl = await api('PUT', hooksPath(`/${created.body.id}`), {
      token: owner.token,
      body: { note_events: true },
    });
    expect([missingUrl.status, missingUrl.body]).toEqual([400, { message: '400 (Bad request) "url" not given' }]);
    const updated = await api('PUT', hooksPath(`/${created.body.id}`), {
      token: owner.token,
      body: { url: receiver.url('form2'), note_events: true },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      url: receiver.url('form2'),
      push_events: 'false',
      issues_events: 'true',
      tag_push_events: 'true',
      note_events: 'true',
    });
  });

  it("answers GitLab's errors: url missing 400, not http(s) 422, unknown id 404, DELETE without id 405", async () => {
    expect(await api('POST', hooksPath(), { token: owner.token, body: { push_events: true } })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "url" not given' },
    });
    for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'not a url', 'file:///etc/passwd']) {
      expect(await api('POST', hooksPath(), { token: owner.token, body: { url } })).toMatchObject({
        status: 422,
        body: { message: 'Invalid url given' },
      });
    }
    expect(
      await api('POST', hooksPath(), { token: owner.token, body: { url: receiver.url('x'), push_events: 'maybe' } }),
    ).toMatchObject({ status: 400, body: { message: { push_events: ['is invalid'] } } });
    // The token travels as a header: a line break in it would split the request.
    expect(
      await api('POST', hooksPath(), {
        token: owner.token,
        body: { url: receiver.url('x'), token: 'a\r\nX-Injected: 1' },
      }),
    ).toMatchObject({ status: 400, body: { message: { token: ['is invalid'] } } });
    expect(await api('GET', hooksPath('/99999999'), { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    // GitLab 7.14 looked hooks up with `find`: ActiveRecord::RecordNotFound's '404 Not found', non-numeric ids too.
    expect(
      await api('PUT', hooksPath('/99999999'), { token: owner.token, body: { url: receiver.url('x') } }),
    ).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api('GET', hooksPath('/abc'), { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect(await api('DELETE', hooksPath(), { token: owner.token })).toMatchObject({
      status: 405,
      body: { message: '405 Method Not Allowed' },
    });
  });

  it('deletes idempotently: the removed hook, then an empty body, both 200', async () => {
    const hook = await addHook({ url: receiver.url('deleted') });
    const first = await api('DELETE', hooksPath(`/${hook.id}`), { token: owner.token });
    expect([first.status, first.body.id, first.body.url]).toEqual([200, hook.id, receiver.url('deleted')]);
    const again = await api('DELETE', hooksPath(`/${hook.id}`), { token: owner.token });
    expect([again.status, again.body]).toEqual([200, {}]);
    expect((await api('GET', hooksPath(`/${hook.id}`), { token: owner.token })).status).toBe(404);
  });

  it('is for Masters and up: 403 below, 404 for strangers to a private project exactly as for a missing one', async () => {
    const hook = await addHook({ url: receiver.url('perm') });
    for (const user of [developer, guest]) {
      expect((await api('GET', hooksPath(), { token: user.token })).status).toBe(403);
      expect((await api('GET', hooksPath(`/${hook.id}`), { token: user.token })).status).toBe(403);
      expect((await api('POST', hooksPath(), { token: user.token, body: { url: receiver.url('x') } })).status).toBe(
        403,
      );
      expect(
        (await api('PUT', hooksPath(`/${hook.id}`), { token: user.token, body: { url: receiver.url('x') } })).status,
      ).toBe(403);
      expect((await api('DELETE', hooksPath(`/${hook.id}`), { token: user.token })).status).toBe(403);
    }
    const missing = { id: 2 ** 31 - 2 };
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', `/${hook.id}`],
      ['POST', ''],
      ['PUT', `/${hook.id}`],
      ['DELETE', `/${hook.id}`],
    ] as const) {
      const body = { url: receiver.url('x') };
      const hidden = await api(method, hooksPath(suffix), { token: stranger.token, body });
      const absent = await api(method, hooksPath(suffix, missing), { token: stranger.token, body });
      expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
      expect([absent.status, absent.body]).toEqual([hidden.status, hidden.body]);
    }
    // Admins manage any project's hooks.
    expect((await api('GET', hooksPath(`/${hook.id}`))).status).toBe(200);
    expect((await api('GET', hooksPath(), { token: null })).status).toBe(401);
  });

  it("shows a hook only on its own project's paths", async () => {
    const other = await createProject(owner.token);
    const foreign = await addHook({ url: receiver.url('foreign') }, other);
    expect((await api('GET', hooksPath(`/${foreign.id}`), { token: owner.token })).status).toBe(404);
    expect(
      (await api('PUT', hooksPath(`/${foreign.id}`), { token: owner.token, body: { url: receiver.url('stolen') } }))
        .status,
    ).toBe(404);
    expect(await api('DELETE', hooksPath(`/${foreign.id}`), { token: owner.token })).toMatchObject({
      status: 200,
      body: {},
    });
    expect((await api('GET', hooksPath(`/${foreign.id}`, other), { token: owner.token })).body.url).toBe(
      receiver.url('foreign'),
    );
  });

  it('goes with its project: a deleted project leaves no hooks behind', async () => {
    const doomed = await createProject(owner.token);
    await addHook({ url: receiver.url('doomed') }, doomed);
    const sql = createSql({ url: stack.databaseUrl, schema: 'hooks', max: 1 });
    try {
      const count = async () =>
        (await sql<{ n: number }[]>`select count(*)::int as n from hooks where project_id = ${doomed.id}`)[0].n;
      expect(await count()).toBe(1);
      expect((await api('DELETE', `/projects/${doomed.id}`, { token: owner.token })).status).toBe(200);
      await eventually(async () => expect(await count()).toBe(0));
    } finally {
      await sql.end();
    }
  });
});

describe('delivering events', () => {
  let delivered: TestProject;
  let wc: string;
  let all: Awaited<ReturnType<typeof addHook>>;
  let pushOnly: Awaited<ReturnType<typeof addHook>>;
  let nothing: Awaited<ReturnType<typeof addHook>>;
  const pushUrl = () => remoteUrl(delivered.path_with_namespace, owner.username, owner.token);

  beforeAll(async () => {
    delivered = await createProject(owner.token);
    all = await addHook(
      {
        url: receiver.url('all'),
        push_events: true,
        tag_push_events: true,
        issues_events: true,
        merge_requests_events: true,
        note_events: true,
        token: 'hook-secret-token',
      },
      delivered,
    );
    pushOnly = await addHook({ url: receiver.url('push-only') }, delivered);
    nothing = await addHook({ url: receiver.url('nothing'), push_events: false }, delivered);
    wc = await workingCopy({ 'README.md': 'hello\n' });
  });

  it("sends a push with GitLab's payload, headers, token and a valid Standard Webhooks signature", async () => {
    ok(await git(wc, 'push', '-q', pushUrl(), 'master'));
    const [delivery] = await receiver.waitFor('all', 1);
    expect(delivery.headers['x-gitlab-event']).toBe('Push Hook');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-gitlab-token']).toBe('hook-secret-token');
    expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
    expect(verify(all, delivery)).toEqual(delivery.body);
    const head = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
    expect(delivery.body).toMatchObject({
      object_kind: 'push',
      before: ZERO,
      after: head,
      ref: 'refs/heads/master',
      checkout_sha: head,
      user_id: owner.id,
      user_name: `User ${owner.username}`,
      user_email: owner.email,
      project_id: delivered.id,
      repository: {
        name: delivered.name,
        url: expect.stringContaining(`${delivered.path_with_namespace}.git`),
        homepage: `${stack.externalUrl}/${delivered.path_with_namespace}`,
        git_http_url: `${stack.externalUrl}/${delivered.path_with_namespace}.git`,
        git_ssh_url: expect.stringContaining(`:${delivered.path_with_namespace}.git`),
        visibility_level: 0,
      },
      total_commits_count: 1,
    });
    expect(delivery.body.commits).toEqual([
      {
        id: head,
        message: 'initial commit\n',
        timestamp: expect.any(String),
        url: `${stack.externalUrl}/${delivered.path_with_namespace}/commit/${head}`,
        author: { name: expect.any(String), email: expect.any(String) },
      },
    ]);
    expect((await receiver.waitFor('push-only', 1))[0].headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('lists commits oldest first, at most 20, with the total', async () => {
    const before = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
    for (let i = 1; i <= 22; i++) await commitFiles(wc, { 'count.txt': `${i}\n` }, `commit ${i}`);
    ok(await git(wc, 'push', '-q', pushUrl(), 'master'));
    const deliveries = await receiver.waitFor('all', 2);
    const push = deliveries[1].body;
    expect([push.before, push.total_commits_count, push.commits.length]).toEqual([before, 22, 20]);
    expect(push.commits.map((c: { message: string }) => c.message.trim())).toEqual(
      Array.from({ length: 20 }, (_, i) => `commit ${i + 3}`),
    );
  });

  it("sends a tag push to hooks with tag_push_events only: the tagged commit and the tag's message, as GitLab 8.x", async () => {
    // Both pushes so far have reached the push-only hook before the tags are pushed.
    const pushOnlyBefore = (await receiver.waitFor('push-only', 2)).length;
    ok(await git(wc, 'tag', '-a', 'v1.0', '-m', 'Release 1.0'));
    ok(await git(wc, 'tag', 'v1.0-light'));
    ok(await git(wc, 'push', '-q', pushUrl(), 'v1.0', 'v1.0-light'));
    const head = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
    const tagObject = (await git(wc, 'rev-parse', 'v1.0')).stdout.trim();
    const tags = (await receiver.waitFor('all', 4)).slice(2);
    const tagged = {
      id: head,
      message: 'commit 22\n',
      timestamp: expect.any(String),
      url: `${stack.externalUrl}/${delivered.path_with_namespace}/commit/${head}`,
      author: { name: expect.any(String), email: expect.any(String) },
    };
    const [annotated, light] = ['refs/tags/v1.0', 'refs/tags/v1.0-light'].map((ref) =>
      tags.find((delivery) => delivery.body.ref === ref),
    );
    expect(annotated?.headers['x-gitlab-event']).toBe('Tag Push Hook');
    // checkout_sha is the commit, not the annotated tag's own object (which `after` names).
    expect(annotated?.body).toMatchObject({
      object_kind: 'tag_push',
      before: ZERO,
      after: tagObject,
      checkout_sha: head,
      message: 'Release 1.0',
      commits: [tagged],
      total_commits_count: 1,
      project_id: delivered.id,
    });
    expect(light?.body).toMatchObject({
      object_kind: 'tag_push',
      after: head,
      checkout_sha: head,
      message: null,
      commits: [tagged],
      total_commits_count: 1,
    });
    // An event's deliveries to all its hooks are recorded at once: now that the tags reached
    // 'all', the push-only hook's log holds every delivery it will ever get for them.
    const pushOnlyLog = await api('GET', hooksPath(`/${pushOnly.id}/events`, delivered), {
      token: owner.token,
      query: { per_page: 100 },
    });
    expect(pushOnlyLog.body).toHaveLength(pushOnlyBefore);
    expect(receiver.at('push-only').length).toBe(pushOnlyBefore);
  });

  it('sends issue events (open, update, close, reopen) and comments as notes', async () => {
    const issue = (
      await api('POST', `/projects/${delivered.id}/issues`, {
        token: owner.token,
        body: { title: 'Broken', description: 'It is', labels: 'bug,ui' },
      })
    ).body;
    await api('PUT', `/projects/${delivered.id}/issues/${issue.id}`, {
      token: owner.token,
      body: { title: 'Broken badly' },
    });
    await api('PUT', `/projects/${delivered.id}/issues/${issue.id}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    await api('PUT', `/projects/${delivered.id}/issues/${issue.id}`, {
      token: owner.token,
      body: { state_event: 'reopen' },
    });
    const ownNote = (
      await api('POST', `/projects/${delivered.id}/issues/${issue.id}/notes`, {
        token: owner.token,
        body: { body: 'Seen it too' },
      })
    ).body;
    const deliveries = (await receiver.waitFor('all', 9)).slice(4);
    const issueHooks = deliveries.filter((d) => d.headers['x-gitlab-event'] === 'Issue Hook');
    expect(issueHooks.map((d) => d.body.object_attributes.action)).toEqual(['open', 'update', 'close', 'reopen']);
    expect(issueHooks[0].body).toMatchObject({
      object_kind: 'issue',
      user: { name: `User ${owner.username}`, username: owner.username, avatar_url: expect.any(String) },
      object_attributes: {
        id: issue.id,
        iid: issue.iid,
        project_id: delivered.id,
        title: 'Broken',
        description: 'It is',
        state: 'opened',
        author_id: owner.id,
        url: `${stack.externalUrl}/${delivered.path_with_namespace}/issues/${issue.iid}`,
      },
    });
    const [noteHook] = deliveries.filter((d) => d.headers['x-gitlab-event'] === 'Note Hook');
    expect(noteHook.body).toMatchObject({
      object_kind: 'note',
      project_id: delivered.id,
      object_attributes: {
        id: ownNote.id,
        note: 'Seen it too',
        noteable_type: 'Issue',
        system: false,
        url: `${stack.externalUrl}/${delivered.path_with_namespace}/issues/${issue.iid}#note_${ownNote.id}`,
      },
      issue: { id: issue.id, iid: issue.iid, title: 'Broken badly' },
    });
    // The system notes of close and reopen send nothing.
    expect(deliveries.filter((d) => d.headers['x-gitlab-event'] === 'Note Hook')).toHaveLength(1);
  });

  it('sends merge request events: open, close, reopen, merge, with source, target and last commit', async () => {
    const start = receiver.at('all').length;
    ok(await git(wc, 'checkout', '-q', '-b', 'feature'));
    const tip = await commitFiles(wc, { 'feature.txt': 'new\n' }, 'Add a feature');
    ok(await git(wc, 'push', '-q', pushUrl(), 'feature'));
    ok(await git(wc, 'checkout', '-q', 'master'));
    const mr = (
      await api('POST', `/projects/${delivered.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: 'feature', target_branch: 'master', title: 'Feature' },
      })
    ).body;
    await api('PUT', `/projects/${delivered.id}/merge_request/${mr.id}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    await api('PUT', `/projects/${delivered.id}/merge_request/${mr.id}`, {
      token: owner.token,
      body: { state_event: 'reopen' },
    });
    expect(
      (await api('PUT', `/projects/${delivered.id}/merge_request/${mr.id}/merge`, { token: owner.token })).status,
    ).toBe(200);
    await eventually(async () => {
      const events = receiver
        .at('all')
        .slice(start)
        .filter((d) => d.headers['x-gitlab-event'] === 'Merge Request Hook');
      expect(events.map((d) => d.body.object_attributes.action)).toEqual(['open', 'close', 'reopen', 'merge']);
    }, 10_000);
    const [opened] = receiver
      .at('all')
      .slice(start)
      .filter((d) => d.headers['x-gitlab-event'] === 'Merge Request Hook');
    expect(opened.body).toMatchObject({
      object_kind: 'merge_request',
      user: { username: owner.username },
      object_attributes: {
        id: mr.id,
        iid: mr.iid,
        source_branch: 'feature',
        target_branch: 'master',
        source_project_id: delivered.id,
        target_project_id: delivered.id,
        state: 'opened',
        title: 'Feature',
        work_in_progress: false,
        url: `${stack.externalUrl}/${delivered.path_with_namespace}/merge_requests/${mr.iid}`,
        source: { name: delivered.name, http_url: `${stack.externalUrl}/${delivered.path_with_namespace}.git` },
        target: { name: delivered.name, visibility_level: 0 },
        last_commit: {
          id: tip,
          message: 'Add a feature\n',
          url: `${stack.externalUrl}/${delivered.path_with_namespace}/commit/${tip}`,
        },
      },
    });
  });

  it('sends a comment on a commit as a note hook carrying the commit', async () => {
    const start = receiver.at('all').length;
    const tip = (await api('GET', `/projects/${delivered.id}/repository/commits/master`, { token: owner.token })).body;
    const comment = await api('POST', `/projects/${delivered.id}/repository/commits/${tip.id}/comments`, {
      token: owner.token,
      body: { note: 'On this commit' },
    });
    expect(comment.status).toBe(201);
    await eventually(async () => {
      expect(
        receiver
          .at('all')
          .slice(start)
          .filter((d) => d.headers['x-gitlab-event'] === 'Note Hook'),
      ).toHaveLength(1);
    }, 10_000);
    const [noteHook] = receiver
      .at('all')
      .slice(start)
      .filter((d) => d.headers['x-gitlab-event'] === 'Note Hook');
    expect(noteHook.body).toMatchObject({
      object_kind: 'note',
      object_attributes: {
        note: 'On this commit',
        noteable_type: 'Commit',
        noteable_id: null,
        commit_id: tip.id,
        url: expect.stringMatching(new RegExp(`/${delivered.path_with_namespace}/commit/${tip.id}#note_\\d+$`)),
      },
      commit: {
        id: tip.id,
        message: tip.message,
        url: `${stack.externalUrl}/${delivered.path_with_namespace}/commit/${tip.id}`,
        author: { name: tip.author_name, email: tip.author_email },
      },
    });
  });

  it('delivers an event that reaches the stream twice (a relay that crashed before its delete) once', async () => {
    const twice = await createProject(owner.token);
    await addHook({ url: receiver.url('twice'), issues_events: true, push_events: false }, twice);
    const issue = (
      await api('POST', `/projects/${twice.id}/issues`, { token: owner.token, body: { title: 'once only' } })
    ).body;
    await receiver.waitFor('twice', 1);
    const redis = createRedis(stack.redisUrl, { blocking: true });
    try {
      const entries = (await redis.xrevrange('events:notes', '+', '-', 'COUNT', 500)) as Array<[string, string[]]>;
      const original = entries.find(
        ([, fields]) =>
          fields.includes('issue.opened') && JSON.parse(fields[fields.indexOf('payload') + 1]).issue_id === issue.id,
      );
      expect(original).toBeDefined();
      await redis.xadd('events:notes', '*', ...original![1]);
    } finally {
      redis.disconnect();
    }
    // A later event arriving proves the copy before it was read.
    await api('POST', `/projects/${twice.id}/issues`, { token: owner.token, body: { title: 'after the copy' } });
    const deliveries = await receiver.waitFor('twice', 2);
    expect(receiver.at('twice').map((d) => d.body.object_attributes.title)).toEqual(['once only', 'after the copy']);
    expect(deliveries).toHaveLength(2);
  });

  it('sends nothing to a hook whose flags are all off, and only pushes to a push-only hook', async () => {
    // Every event of the project so far has reached 'all' (each test waited for its own), and an
    // event's deliveries to all its hooks are recorded at once: these logs are complete.
    const logged = async (hook: { id: number }) =>
      (await api('GET', hooksPath(`/${hook.id}/events`, delivered), { token: owner.token, query: { per_page: 100 } }))
        .body as Array<{ event_name: string }>;
    expect(await logged(nothing)).toEqual([]);
    expect(new Set((await logged(pushOnly)).map((d) => d.event_name))).toEqual(new Set(['Push Hook']));
    expect(receiver.at('nothing')).toHaveLength(0);
    expect(new Set(receiver.at('push-only').map((d) => d.headers['x-gitlab-event']))).toEqual(new Set(['Push Hook']));
    expect(pushOnly.push_events).toBe('true');
  });
});

describe('retries, the delivery log and re-sends', () => {
  let target: TestProject;

  beforeAll(async () => {
    target = await createProject(owner.token);
  });

  it('retries a receiver that fails twice; the third attempt lands and the log shows all three', async () => {
    receiver.respond('flaky', (_r, i) =>
      i < 2 ? { status: 503, body: 'try later' } : { status: 200, body: 'thanks' },
    );
    const hook = await addHook({ url: receiver.url('flaky'), issues_events: true, push_events: false }, target);
    await api('POST', `/projects/${target.id}/issues`, { token: owner.token, body: { title: 'retry me' } });
    const attempts = await receiver.waitFor('flaky', 3, 20_000);
    // The same message each time: one webhook-id, so receivers can tell a retry from a new event.
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    await eventually(async () => {
      const log = await api('GET', hooksPath(`/${hook.id}/events`, target), { token: owner.token });
      expect(log.status).toBe(200);
      expect(log.body).toHaveLength(1);
      expect(log.body[0]).toMatchObject({
        event_name: 'Issue Hook',
        state: 'delivered',
        webhook_id: attempts[0].headers['webhook-id'],
        payload: { object_kind: 'issue' },
      });
      expect(log.body[0].attempts.map((a: { response_status: number }) => a.response_status)).toEqual([503, 503, 200]);
      expect(log.body[0].attempts[0]).toMatchObject({
        error: 'HTTP 503',
        response_body: 'try later',
        request_headers: { 'x-gitlab-event': 'Issue Hook' },
      });
      expect(log.body[0].attempts[2].response_body).toBe('thanks');
    }, 5000);
  }, 30_000);

  it('re-sends a logged delivery: same body and webhook-id, a fourth attempt in the log', async () => {
    const hook = (await api('GET', hooksPath('', target), { token: owner.token })).body[0];
    const [delivery] = (await api('GET', hooksPath(`/${hook.id}/events`, target), { token: owner.token })).body;
    const resent = await api('POST', hooksPath(`/${hook.id}/events/${delivery.id}/resend`, target), {
      token: owner.token,
    });
    expect(resent.status).toBe(201);
    expect(resent.body).toMatchObject({ id: delivery.id, state: 'pending' });
    const all = await receiver.waitFor('flaky', 4);
    expect(all[3].text).toBe(all[2].text);
    expect(all[3].headers['webhook-id']).toBe(all[2].headers['webhook-id']);
    await eventually(async () => {
      const [after] = (await api('GET', hooksPath(`/${hook.id}/events`, target), { token: owner.token })).body;
      expect([after.state, after.attempts.length]).toEqual(['delivered', 4]);
    });
    expect(
      (await api('POST', hooksPath(`/${hook.id}/events/99999999/resend`, target), { token: owner.token })).status,
    ).toBe(404);
    expect(
      (await api('POST', hooksPath(`/${hook.id}/events/${delivery.id}/resend`, target), { token: developer.token }))
        .status,
    ).toBe(404);
  });

  it('announces each attempt on events:hooks with the state it left, and node(id:) shows the delivery to those who may see the hook', async () => {
    const hook = (await api('GET', hooksPath('', target), { token: owner.token })).body[0];
    const [delivery] = (await api('GET', hooksPath(`/${hook.id}/events`, target), { token: owner.token })).body;
    const redis = createRedis(stack.redisUrl);
    try {
      // The four attempts of the tests above: two 503s to be retried, the 200, and the re-send's 200.
      await eventually(async () => {
        const entries = (await redis.xrevrange('events:hooks', '+', '-', 'COUNT', 5000)) as Array<[string, string[]]>;
        const attempts = entries
          .reverse()
          .map(([, fields]) => ({
            type: fields[fields.indexOf('type') + 1],
            ...JSON.parse(fields[fields.indexOf('payload') + 1]),
          }))
          .filter((event) => event.delivery_id === delivery.id);
        expect(attempts.map((a) => [a.attempt, a.state, a.status_code])).toEqual([
          [1, 'pending', 503],
          [2, 'pending', 503],
          [3, 'delivered', 200],
          [4, 'delivered', 200],
        ]);
        for (const attempt of attempts)
          expect(attempt).toMatchObject({
            type: 'hook_delivery.attempted',
            v: 1,
            hook_id: hook.id,
            system_hook: false,
            project_id: target.id,
            event_name: 'Issue Hook',
          });
      });
    } finally {
      redis.disconnect();
    }
    const query = 'query ($id: ID!) { node(id: $id) { ... on HookDelivery { databaseId hookId state } } }';
    const id = `gid://hub/HookDelivery/${delivery.id}`;
    const asOwner = await graphql(query, { id }, { 'PRIVATE-TOKEN': owner.token });
    expect([asOwner.body.errors, asOwner.body.data]).toEqual([
      undefined,
      { node: { databaseId: delivery.id, hookId: hook.id, state: 'delivered' } },
    ]);
    // Below Master, and outside the project, alike: null, as for a delivery that does not exist.
    await addMember(target.id, developer.id, 30);
    for (const other of [developer, stranger]) {
      const hidden = await graphql(query, { id }, { 'PRIVATE-TOKEN': other.token });
      expect([hidden.body.errors, hidden.body.data]).toEqual([undefined, { node: null }]);
    }
  });

  it('stops at a final answer (4xx) without retrying, and logs it as failed', async () => {
    receiver.respond('gone', () => ({ status: 410, body: 'no such endpoint' }));
    const hook = await addHook({ url: receiver.url('gone'), issues_events: true, push_events: false }, target);
    await api('POST', `/projects/${target.id}/issues`, { token: owner.token, body: { title: 'nobody listens' } });
    await receiver.waitFor('gone', 1);
    await eventually(async () => {
      const [logged] = (await api('GET', hooksPath(`/${hook.id}/events`, target), { token: owner.token })).body;
      expect([logged.state, logged.attempts.length, logged.attempts[0].response_status]).toEqual(['failed', 1, 410]);
    });
    // BullMQ tries again only a job it has not failed for good: once the job is in the queue's
    // failed set, no attempt can follow, however long one would have waited.
    const sql = createSql({ url: stack.databaseUrl, schema: 'hooks', max: 1 });
    const redis = createRedis(stack.redisUrl);
    try {
      const [{ eventKey }] = await sql<
        { eventKey: string }[]
      >`select event_key from deliveries where hook_id = ${hook.id}`;
      // The hooks service's jobIdOf: the event and the hook.
      const jobId = `${eventKey.replace(/:/g, '-')}-h${hook.id}`;
      await eventually(async () => expect(await redis.zscore('bull:hook-deliveries:failed', jobId)).not.toBeNull());
    } finally {
      await sql.end();
      redis.disconnect();
    }
    expect(receiver.at('gone')).toHaveLength(1);
  });

  it('honours Retry-After on a 429', async () => {
    receiver.respond('limited', (_r, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 204 },
    );
    await addHook({ url: receiver.url('limited'), issues_events: true, push_events: false }, target);
    await api('POST', `/projects/${target.id}/issues`, { token: owner.token, body: { title: 'slow down' } });
    const [first] = await receiver.waitFor('limited', 1);
    const firstAt = Date.now();
    await receiver.waitFor('limited', 2, 10_000);
    // Asked for 2 s; the default first retry would come after 0.5–1 s.
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(1500);
    expect(first.headers['x-gitlab-event']).toBe('Issue Hook');
  }, 20_000);
});

describe('hooks in the graph', () => {
  it("shows a project's hooks and their deliveries to internal teams", async () => {
    const project2 = await createProject(owner.token);
    const hook = await addHook({ url: receiver.url('graph'), issues_events: true }, project2);
    await api('POST', `/projects/${project2.id}/issues`, { token: owner.token, body: { title: 'graph me' } });
    await receiver.waitFor('graph', 1);
    await eventually(async () => {
      const res = await graphql(
        `
          query ($id: Int!) {
            project(id: $id) {
              hooks {
                count
                nodes {
                  id
                  databaseId
                  url
                  issuesEvents
                  hasToken
                  deliveries {
                    count
                    nodes {
                      eventName
                      state
                      attempts {
                        statusCode
                        worker
                      }
                    }
                  }
                }
              }
            }
          }
        `,
        { id: project2.id },
        { 'PRIVATE-TOKEN': owner.token },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.project.hooks).toMatchObject({
        count: 1,
        nodes: [
          {
            id: `gid://hub/Hook/${hook.id}`,
            databaseId: hook.id,
            url: receiver.url('graph'),
            issuesEvents: true,
            hasToken: false,
            deliveries: {
              count: 1,
              nodes: [
                {
                  eventName: 'Issue Hook',
                  state: 'delivered',
                  attempts: [{ statusCode: 200, worker: expect.any(String) }],
                },
              ],
            },
          },
        ],
      });
    });
    // Ids no project has reach the graph directly (the facade never sends them): a 404, not a failure.
    for (const id of [0, -5]) {
      const bogus = await graphql(
        `
          mutation ($id: Int!) {
            createHook(input: { projectId: $id, url: "http://example.com/" }) {
              hook {
                id
              }
            }
          }
        `,
        { id },
        { 'PRIVATE-TOKEN': owner.token },
      );
      expect(bogus.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    const denied = await graphql(
      `
        query ($id: Int!) {
          project(id: $id) {
            hooks {
              count
            }
          }
        }
      `,
      { id: project2.id },
      { 'PRIVATE-TOKEN': guest.token },
    );
    expect(denied.body.data?.project ?? null).toBeNull();
  });
});
