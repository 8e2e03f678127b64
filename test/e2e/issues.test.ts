import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  graphql,
  type TestProject,
  type TestUser,
} from '../support/api';

let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let project: TestProject;

beforeAll(async () => {
  [owner, guest, reporter, stranger] = [await createUser(), await createUser(), await createUser(), await createUser()];
  project = await createProject(owner.token);
  await addMember(project.id, guest.id, 10);
  await addMember(project.id, reporter.id, 20);
});

const path = (suffix = '') => `/projects/${project.id}/issues${suffix}`;

describe('issues', () => {
  it('guests open issues with labels; global id and per-project iid; v3 fields', async () => {
    const res = await api('POST', path(), {
      token: guest.token,
      body: { title: 'Broken thing', description: 'It breaks', labels: 'bug, urgent', assignee_id: owner.id },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      iid: expect.any(Number),
      project_id: project.id,
      title: 'Broken thing',
      description: 'It breaks',
      state: 'opened',
      labels: ['bug', 'urgent'],
      milestone: null,
      author: { id: guest.id, username: guest.username },
      assignee: { id: owner.id },
    });
    const second = await api('POST', path(), { token: guest.token, body: { title: 'Second' } });
    expect(second.body.iid).toBe(res.body.iid + 1);
    expect((await api('GET', path(`/${res.body.id}`), { token: reporter.token })).body.title).toBe('Broken thing');
  });

  it('lists with state and labels filters and pagination headers', async () => {
    const a = (await api('POST', path(), { token: owner.token, body: { title: 'A', labels: 'listtest,x' } })).body;
    const b = (await api('POST', path(), { token: owner.token, body: { title: 'B', labels: 'listtest' } })).body;
    await api('PUT', path(`/${b.id}`), { token: owner.token, body: { state_event: 'close' } });
    const labelled = await api('GET', path(), { token: guest.token, query: { labels: 'listtest' } });
    expect(labelled.body.map((i: { id: number }) => i.id)).toEqual([b.id, a.id]);
    expect(labelled.headers.get('x-total')).toBe('2');
    // Any of the labels given, as GitLab 7.14 filtered (labels.title IN ...).
    expect(
      (await api('GET', path(), { token: guest.token, query: { labels: 'x,nothing-has-this' } })).body.map(
        (i: { id: number }) => i.id,
      ),
    ).toEqual([a.id]);
    expect(
      (await api('GET', path(), { token: guest.token, query: { labels: 'listtest,x' } })).body.map(
        (i: { id: number }) => i.id,
      ),
    ).toEqual([b.id, a.id]);
    expect(
      (await api('GET', path(), { token: guest.token, query: { labels: 'listtest', state: 'closed' } })).body.map(
        (i: { id: number }) => i.id,
      ),
    ).toEqual([b.id]);
    expect((await api('GET', path(), { token: guest.token, query: { state: 'nope' } })).status).toBe(400);
  });

  it('closes and reopens with system notes; only the author or Reporter and above edit', async () => {
    const issue = (await api('POST', path(), { token: guest.token, body: { title: 'To close' } })).body;
    const other = await createUser();
    await addMember(project.id, other.id, 10);
    expect((await api('PUT', path(`/${issue.id}`), { token: other.token, body: { title: 'hijack' } })).status).toBe(
      403,
    );
    expect(
      (await api('PUT', path(`/${issue.id}`), { token: reporter.token, body: { state_event: 'close' } })).body.state,
    ).toBe('closed');
    expect(
      (await api('PUT', path(`/${issue.id}`), { token: guest.token, body: { state_event: 'reopen', labels: 'again' } }))
        .body,
    ).toMatchObject({ state: 'reopened', labels: ['again'] });
    // Labels sent empty clear them, as GitLab's update did.
    expect((await api('PUT', path(`/${issue.id}`), { token: guest.token, body: { labels: '' } })).body.labels).toEqual(
      [],
    );
    const notes = await api('GET', path(`/${issue.id}/notes`), { token: guest.token });
    expect(notes.body.map((n: { body: string; system: boolean }) => [n.body, n.system])).toEqual([
      ['Status changed to closed', true],
      ['Status changed to reopened', true],
    ]);
  });

  it("lets the assignee change an issue whatever their level, as GitLab 7.14's modify_issue, over REST and GraphQL", async () => {
    const [assignee, other] = [await createUser(), await createUser()];
    await addMember(project.id, assignee.id, 10);
    await addMember(project.id, other.id, 10);
    const issue = (
      await api('POST', path(), { token: owner.token, body: { title: 'Assigned', assignee_id: assignee.id } })
    ).body;
    const refused = await api('PUT', path(`/${issue.id}`), { token: other.token, body: { state_event: 'close' } });
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    const closed = await api('PUT', path(`/${issue.id}`), { token: assignee.token, body: { state_event: 'close' } });
    expect([closed.status, closed.body.state]).toEqual([200, 'closed']);
    const RENAME = `mutation ($p: Int!, $id: Int!, $t: String!) { updateIssue(input: { projectId: $p, issueId: $id, title: $t }) { issue { title } errors { code } } }`;
    const rename = (user: TestUser, title: string) =>
      graphql(RENAME, { p: project.id, id: issue.id, t: title }, { 'PRIVATE-TOKEN': user.token });
    expect((await rename(other, 'mine now')).body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect((await rename(assignee, 'Fixed by the assignee')).body.data).toEqual({
      updateIssue: { issue: { title: 'Fixed by the assignee' }, errors: [] },
    });
  });

  it('refuses new issues when the project has issues disabled, missing titles, and strangers', async () => {
    const closedOff = await createProject(owner.token, { issues_enabled: false });
    expect(
      (await api('POST', `/projects/${closedOff.id}/issues`, { token: owner.token, body: { title: 'x' } })).status,
    ).toBe(403);
    expect((await api('POST', path(), { token: owner.token, body: {} })).body).toEqual({
      message: '400 (Bad request) "title" not given',
    });
    expect((await api('GET', path(), { token: stranger.token })).status).toBe(404);
    expect((await api('GET', path('/999999'), { token: owner.token })).status).toBe(404);
  });

  it('shows opened issues in the project feed', async () => {
    const issue = (await api('POST', path(), { token: owner.token, body: { title: 'In the feed' } })).body;
    await eventually(async () => {
      const events = await api('GET', `/projects/${project.id}/events`, { token: owner.token });
      expect(
        events.body.find(
          (e: { target_type: string; target_id: number }) => e.target_type === 'Issue' && e.target_id === issue.id,
        ),
      ).toMatchObject({
        action_name: 'opened',
        target_title: 'In the feed',
      });
    });
  });

  it('shows a reopen as "opened" and a comment without target_title in the feed (GitLab 7.14 Event)', async () => {
    const issue = (await api('POST', path(), { token: owner.token, body: { title: 'Reopened in the feed' } })).body;
    await api('PUT', path(`/${issue.id}`), { token: owner.token, body: { state_event: 'close' } });
    await api('PUT', path(`/${issue.id}`), { token: owner.token, body: { state_event: 'reopen' } });
    const note = (await api('POST', path(`/${issue.id}/notes`), { token: owner.token, body: { body: 'A comment' } }))
      .body;
    await eventually(async () => {
      const events = (
        await api('GET', `/projects/${project.id}/events`, { token: owner.token, query: { per_page: 100 } })
      ).body;
      const ofIssue = events.filter(
        (e: { target_type: string; target_id: number }) => e.target_type === 'Issue' && e.target_id === issue.id,
      );
      expect(ofIssue.map((e: { action_name: string }) => e.action_name)).toEqual(['opened', 'closed', 'opened']);
      expect(
        events.find(
          (e: { target_type: string; target_id: number }) => e.target_type === 'Note' && e.target_id === note.id,
        ),
      ).toMatchObject({
        action_name: 'commented on',
        target_title: null,
      });
    });
  });
});

describe('issue notes', () => {
  it('guests comment; votes; the v3 note fields; edits by the author or a Master', async () => {
    const issue = (await api('POST', path(), { token: owner.token, body: { title: 'Discuss' } })).body;
    const note = await api('POST', path(`/${issue.id}/notes`), { token: guest.token, body: { body: '+1' } });
    expect(note.status).toBe(201);
    expect(note.body).toEqual({
      id: expect.any(Number),
      body: '+1',
      attachment: null,
      author: expect.objectContaining({ id: guest.id, username: guest.username }),
      created_at: expect.any(String),
      system: false,
      upvote: true,
      downvote: false,
    });
    await api('POST', path(`/${issue.id}/notes`), { token: reporter.token, body: { body: ':-1:' } });
    const list = await api('GET', path(`/${issue.id}/notes`), { token: owner.token });
    expect(list.body.map((n: { upvote: boolean; downvote: boolean }) => [n.upvote, n.downvote])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(list.headers.get('x-total')).toBe('2');
    expect((await api('GET', path(`/${issue.id}/notes/${note.body.id}`), { token: owner.token })).body.body).toBe('+1');
    expect(
      (await api('PUT', path(`/${issue.id}/notes/${note.body.id}`), { token: reporter.token, body: { body: 'no' } }))
        .status,
    ).toBe(403);
    expect(
      (await api('PUT', path(`/${issue.id}/notes/${note.body.id}`), { token: guest.token, body: { body: 'edited' } }))
        .body.body,
    ).toBe('edited');
    expect(
      (
        await api('PUT', path(`/${issue.id}/notes/${note.body.id}`), {
          token: owner.token,
          body: { body: 'by master' },
        })
      ).body.body,
    ).toBe('by master');
    expect((await api('POST', path(`/${issue.id}/notes`), { token: guest.token, body: {} })).body).toEqual({
      message: '400 (Bad request) "body" not given',
    });
  });

  it("answers a record it cannot find as GitLab's find did: 404 Not found", async () => {
    const issue = (await api('POST', path(), { token: owner.token, body: { title: 'Found' } })).body;
    const notFound = { message: '404 Not found' };
    expect(await api('PUT', path('/999999999'), { token: owner.token, body: { title: 'x' } })).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect(await api('POST', path('/999999999/notes'), { token: owner.token, body: { body: 'x' } })).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect(
      await api('PUT', path(`/${issue.id}/notes/999999999`), { token: owner.token, body: { body: 'x' } }),
    ).toMatchObject({ status: 404, body: notFound });
  });

  it('404s a note of another project', async () => {
    const issue = (await api('POST', path(), { token: owner.token, body: { title: 'Mine' } })).body;
    const note = (await api('POST', path(`/${issue.id}/notes`), { token: owner.token, body: { body: 'hello' } })).body;
    const other = await createProject(owner.token);
    expect(
      (await api('GET', `/projects/${other.id}/issues/${issue.id}/notes/${note.id}`, { token: owner.token })).status,
    ).toBe(404);
    expect((await api('GET', `/projects/${other.id}/issues/${issue.id}/notes`, { token: owner.token })).status).toBe(
      404,
    );
    expect(
      (await api('POST', `/projects/${other.id}/issues/${issue.id}/notes`, { token: owner.token, body: { body: 'x' } }))
        .status,
    ).toBe(404);
  });
});
