import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  expectPaginationHeaders,
  type TestProject,
  type TestUser,
} from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';

// GitLab 7.14's labels and milestones (lib/api/labels.rb, milestones.rb), the labels and milestone
// of issues and merge requests, and GET /issues.

let owner: TestUser;
let master: TestUser;
let developer: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: TestProject;

beforeAll(async () => {
  [owner, master, developer, reporter, guest, stranger] = [
    await createUser(),
    await createUser(),
    await createUser(),
    await createUser(),
    await createUser(),
    await createUser(),
  ];
  project = await createProject(owner.token);
  await addMember(project.id, master.id, 40);
  await addMember(project.id, developer.id, 30);
  await addMember(project.id, reporter.id, 20);
  await addMember(project.id, guest.id, 10);
});

const labelsPath = (p: { id: number } = project) => `/projects/${p.id}/labels`;
const milestonesPath = (suffix = '', p: { id: number } = project) => `/projects/${p.id}/milestones${suffix}`;
const issuesPath = (suffix = '', p: { id: number } = project) => `/projects/${p.id}/issues${suffix}`;
const names = (res: { body: Array<{ name: string }> }) => res.body.map((l) => l.name);
/** A label name of 300 characters: GitLab's limit is 255. */
const LONG_NAME = 'n'.repeat(300);
/** Past the size a btree index entry may have (~2.7 KB), and not compressible below it. */
const HUGE_NAME = randomBytes(2000).toString('hex');
const TOO_LONG = ['is too long (maximum is 255 characters)'];
const ids = (res: { body: Array<{ id: number }> }) => res.body.map((i) => i.id);

describe('labels', () => {
  it('lets Reporters add labels (name and color), lists them by name with pagination headers, and anyone who reads the project sees them', async () => {
    const own = await createProject(owner.token);
    await addMember(own.id, reporter.id, 20);
    await addMember(own.id, guest.id, 10);
    const empty = await api('GET', labelsPath(own), { token: guest.token });
    expect([empty.status, empty.body]).toEqual([200, []]);
    expectPaginationHeaders(empty, 0);
    const made = await api('POST', labelsPath(own), { token: reporter.token, body: { name: 'bug', color: '#FF0000' } });
    expect([made.status, made.body]).toEqual([201, { name: 'bug', color: '#FF0000' }]);
    await api('POST', labelsPath(own), {
      token: owner.token,
      body: new URLSearchParams({ name: 'Accepted', color: '#00ff00' }),
    });
    await api('POST', `/projects/${encodeURIComponent(own.path_with_namespace)}/labels`, {
      token: owner.token,
      body: { name: 'docs', color: '#0000FF' },
    });
    const listed = await api('GET', labelsPath(own), { token: guest.token });
    expect(listed.body).toEqual([
      { name: 'Accepted', color: '#00ff00' },
      { name: 'bug', color: '#FF0000' },
      { name: 'docs', color: '#0000FF' },
    ]);
    expectPaginationHeaders(listed, 3);
    const page = await api('GET', labelsPath(own), { token: guest.token, query: { per_page: 2, page: 2 } });
    expect(names(page)).toEqual(['docs']);
    expectPaginationHeaders(page, 3, 2);
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="prev"');
    expect(
      names(
        await api('GET', `/projects/${encodeURIComponent(own.path_with_namespace)}/labels`, { token: guest.token }),
      ),
    ).toEqual(['Accepted', 'bug', 'docs']);
  });

  it("refuses what GitLab 7.14 refused: duplicates (409), bad colors and names (400, the model's messages), missing attributes, Guests (403)", async () => {
    const own = await createProject(owner.token);
    await addMember(own.id, guest.id, 10);
    await api('POST', labelsPath(own), { token: owner.token, body: { name: 'taken', color: '#123456' } });
    const post = (body: Record<string, unknown>, token = owner.token) => api('POST', labelsPath(own), { token, body });
    expect(await post({ name: 'taken', color: '#654321' })).toMatchObject({
      status: 409,
      body: { message: 'Label already exists' },
    });
    expect(await post({ name: 'x', color: 'red' })).toMatchObject({
      status: 400,
      body: { message: { color: ['is invalid'] } },
    });
    expect(await post({ name: 'x', color: '#12345' })).toMatchObject({
      status: 400,
      body: { message: { color: ['is invalid'] } },
    });
    expect(await post({ name: 'a,b', color: '#123456' })).toMatchObject({
      status: 400,
      body: { message: { title: ['is invalid'] } },
    });
    expect(await post({ name: 'why?', color: 'nope' })).toMatchObject({
      status: 400,
      body: { message: { color: ['is invalid'], title: ['is invalid'] } },
    });
    expect(await post({ color: '#123456' })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "name" not given' },
    });
    expect(await post({ name: 'x' })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "color" not given' },
    });
    // authorize! :admin_label came before required_attributes!.
    expect(await post({}, guest.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await post({ name: 'g', color: '#123456' }, guest.token)).toMatchObject({ status: 403 });
    expect(names(await api('GET', labelsPath(own), { token: owner.token }))).toEqual(['taken']);
  });

  it("refuses names longer than 255 characters with the model's message (400, never a 500), on POST and on PUT", async () => {
    const own = await createProject(owner.token);
    const post = (name: string) =>
      api('POST', labelsPath(own), { token: owner.token, body: { name, color: '#123456' } });
    expect(await post(LONG_NAME)).toMatchObject({ status: 400, body: { message: { title: TOO_LONG } } });
    expect(await post(HUGE_NAME)).toMatchObject({ status: 400, body: { message: { title: TOO_LONG } } });
    expect(await post(`a,${LONG_NAME}`)).toMatchObject({
      status: 400,
      body: { message: { title: ['is invalid', ...TOO_LONG] } },
    });
    const longest = 'k'.repeat(255);
    expect(await post(longest)).toMatchObject({ status: 201, body: { name: longest } });
    const put = (body: Record<string, unknown>) => api('PUT', labelsPath(own), { token: owner.token, body });
    expect(await put({ name: longest, new_name: LONG_NAME })).toMatchObject({
      status: 400,
      body: { message: { title: TOO_LONG } },
    });
    expect(await put({ name: longest, new_name: HUGE_NAME, color: 'red' })).toMatchObject({
      status: 400,
      body: { message: { color: ['is invalid'], title: TOO_LONG } },
    });
    expect(await put({ name: HUGE_NAME, color: '#000000' })).toMatchObject({
      status: 404,
      body: { message: '404 Label not found Not Found' },
    });
    expect(await api('DELETE', labelsPath(own), { token: owner.token, body: { name: HUGE_NAME } })).toMatchObject({
      status: 404,
      body: { message: '404 Label Not Found' },
    });
    expect(names(await api('GET', labelsPath(own), { token: owner.token }))).toEqual([longest]);
  });

  it("hides a private project's labels from strangers (404) and needs credentials", async () => {
    expect(await api('GET', labelsPath(), { token: stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(
      await api('POST', labelsPath(), { token: stranger.token, body: { name: 'x', color: '#123456' } }),
    ).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api('DELETE', labelsPath(), { token: stranger.token, body: { name: 'x' } })).toMatchObject({
      status: 404,
    });
    expect((await api('GET', labelsPath(), { token: null })).status).toBe(401);
    expect((await api('GET', '/projects/999999999/labels', { token: owner.token })).status).toBe(404);
  });

  it('renames and recolours by name (PUT); issues carrying the label follow', async () => {
    const own = await createProject(owner.token);
    await addMember(own.id, reporter.id, 20);
    await api('POST', labelsPath(own), { token: owner.token, body: { name: 'old', color: '#111111' } });
    await api('POST', labelsPath(own), { token: owner.token, body: { name: 'other', color: '#222222' } });
    const issue = (
      await api('POST', issuesPath('', own), { token: owner.token, body: { title: 'Labelled', labels: 'old,zeta' } })
    ).body;
    const put = (body: Record<string, unknown>, token = reporter.token) => api('PUT', labelsPath(own), { token, body });
    expect(await put({ name: 'old', new_name: 'new', color: '#ABCDEF' })).toMatchObject({
      status: 200,
      body: { name: 'new', color: '#ABCDEF' },
    });
    expect(await put({ name: 'new', color: '#000000' })).toMatchObject({
      status: 200,
      body: { name: 'new', color: '#000000' },
    });
    expect((await api('GET', issuesPath(`/${issue.id}`, own), { token: owner.token })).body.labels).toEqual([
      'new',
      'zeta',
    ]);
    expect(await put({ name: 'new' })).toMatchObject({
      status: 400,
      body: { message: 'Required parameters "new_name" or "color" missing' },
    });
    expect(await put({ name: 'missing', color: '#000000' })).toMatchObject({
      status: 404,
      body: { message: '404 Label not found Not Found' },
    });
    expect(await put({ name: 'new', new_name: 'other' })).toMatchObject({
      status: 400,
      body: { message: { title: ['has already been taken'] } },
    });
    expect(await put({ name: 'new', color: 'blue' })).toMatchObject({
      status: 400,
      body: { message: { color: ['is invalid'] } },
    });
    expect(await put({ new_name: 'x' })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "name" not given' },
    });
    expect((await put({ name: 'new', color: '#000000' }, guest.token)).status).toBe(404);
    expect(await api('GET', labelsPath(own), { token: owner.token })).toMatchObject({
      body: [
        { name: 'new', color: '#000000' },
        { name: 'other', color: '#222222' },
        { name: 'zeta', color: '#428BCA' },
      ],
    });
  });

  it('removes by name (DELETE), answering the removed record as GitLab 7.14 rendered it; issues lose the label', async () => {
    const own = await createProject(owner.token);
    await addMember(own.id, guest.id, 10);
    await api('POST', labelsPath(own), { token: owner.token, body: { name: 'gone', color: '#123456' } });
    const issue = (
      await api('POST', issuesPath('', own), {
        token: owner.token,
        body: { title: 'Loses a label', labels: 'gone,kept' },
      })
    ).body;
    expect((await api('DELETE', labelsPath(own), { token: guest.token, body: { name: 'gone' } })).status).toBe(403);
    const removed = await api('DELETE', labelsPath(own), { token: owner.token, query: { name: 'gone' } });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      id: expect.any(Number),
      title: 'gone',
      color: '#123456',
      project_id: own.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await api('DELETE', labelsPath(own), { token: owner.token, body: { name: 'gone' } })).toMatchObject({
      status: 404,
      body: { message: '404 Label Not Found' },
    });
    expect(await api('DELETE', labelsPath(own), { token: owner.token, body: {} })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "name" not given' },
    });
    expect(names(await api('GET', labelsPath(own), { token: owner.token }))).toEqual(['kept']);
    expect((await api('GET', issuesPath(`/${issue.id}`, own), { token: owner.token })).body.labels).toEqual(['kept']);
  });
});

describe('milestones', () => {
  const MILESTONE_FIELDS = [
    'id',
    'iid',
    'project_id',
    'title',
    'description',
    'state',
    'created_at',
    'updated_at',
    'due_date',
  ];

  it('lets Masters create them (title, description, due_date) with per-project iids and the v3 fields', async () => {
    const own = await createProject(owner.token);
    await addMember(own.id, master.id, 40);
    const res = await api('POST', milestonesPath('', own), {
      token: master.token,
      body: { title: '1.0', description: 'First', due_date: '2026-12-24' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...MILESTONE_FIELDS].sort());
    expect(res.body).toMatchObject({
      iid: 1,
      project_id: own.id,
      title: '1.0',
      description: 'First',
      state: 'active',
      due_date: '2026-12-24',
    });
    const second = await api('POST', milestonesPath('', own), {
      token: owner.token,
      body: new URLSearchParams({ title: '1.1' }),
    });
    expect(second.body).toMatchObject({ iid: 2, title: '1.1', description: null, due_date: null });
    // Rails kept a date it could not read as none.
    expect(
      (await api('POST', milestonesPath('', own), { token: owner.token, body: { title: 'undated', due_date: 'soon' } }))
        .body.due_date,
    ).toBeNull();
    const elsewhere = await createProject(owner.token);
    expect(
      (await api('POST', milestonesPath('', elsewhere), { token: owner.token, body: { title: 'x' } })).body.iid,
    ).toBe(1);
  });

  it('refuses Developers (403, before the missing title), a missing title (400) and strangers (404)', async () => {
    expect(await api('POST', milestonesPath(), { token: developer.token, body: {} })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await api('POST', milestonesPath(), { token: developer.token, body: { title: 'x' } })).toMatchObject({
      status: 403,
    });
    expect(await api('POST', milestonesPath(), { token: master.token, body: { title: '  ' } })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "title" not given' },
    });
    expect(await api('POST', milestonesPath(), { token: stranger.token, body: { title: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await api('GET', milestonesPath(), { token: stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });

  it('lists newest first for Guests, with state and iid filters and pagination headers; shows one by id', async () => {
    const own = await createProject(owner.token);
    await addMember(own.id, guest.id, 10);
    const a = (await api('POST', milestonesPath('', own), { token: owner.token, body: { title: 'a' } })).body;
    const b = (await api('POST', milestonesPath('', own), { token: owner.token, body: { title: 'b' } })).body;
    const c = (await api('POST', milestonesPath('', own), { token: owner.token, body: { title: 'c' } })).body;
    await api('PUT', milestonesPath(`/${b.id}`, own), { token: owner.token, body: { state_event: 'close' } });
    const all = await api('GET', milestonesPath('', own), { token: guest.token });
    expect([all.status, ids(all)]).toEqual([200, [c.id, b.id, a.id]]);
    expectPaginationHeaders(all, 3);
    expect(ids(await api('GET', milestonesPath('', own), { token: guest.token, query: { state: 'active' } }))).toEqual([
      c.id,
      a.id,
    ]);
    expect(ids(await api('GET', milestonesPath('', own), { token: guest.token, query: { state: 'closed' } }))).toEqual([
      b.id,
    ]);
    // filter_milestones_state's else: any other state filters nothing.
    expect(
      ids(await api('GET', milestonesPath('', own), { token: guest.token, query: { state: 'sideways' } })),
    ).toEqual([c.id, b.id, a.id]);
    expect(ids(await api('GET', milestonesPath('', own), { token: guest.token, query: { iid: b.iid } }))).toEqual([
      b.id,
    ]);
    const paged = await api('GET', milestonesPath('', own), { token: guest.token, query: { per_page: 1, page: 3 } });
    expect(ids(paged)).toEqual([a.id]);
    expectPaginationHeaders(paged, 3, 1);
    expect((await api('GET', milestonesPath(`/${a.id}`, own), { token: guest.token })).body).toMatchObject({
      id: a.id,
      title: 'a',
      state: 'active',
    });
    expect(await api('GET', milestonesPath(`/${a.id}`), { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect(await api('GET', milestonesPath('/999999999', own), { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
  });

  it('updates title, description, due_date and the state (state_event close/activate), Masters only', async () => {
    const made = (await api('POST', milestonesPath(), { token: master.token, body: { title: 'Edit me' } })).body;
    const put = (body: Record<string, unknown>, token = master.token) =>
      api('PUT', milestonesPath(`/${made.id}`), { token, body });
    expect(await put({ title: 'Edited', description: 'Now', due_date: '2027-01-31' })).toMatchObject({
      status: 200,
      body: { title: 'Edited', description: 'Now', due_date: '2027-01-31', state: 'active' },
    });
    expect((await put({ state_event: 'close' })).body.state).toBe('closed');
    expect((await put({ state_event: 'close' })).body.state).toBe('closed');
    expect((await put({ state_event: 'activate', title: 'Reopened' })).body).toMatchObject({
      state: 'active',
      title: 'Reopened',
    });
    // An unknown event changes no state; a blank title is not sent (attributes_for_keys).
    expect((await put({ state_event: 'sideways', title: '' })).body).toMatchObject({
      state: 'active',
      title: 'Reopened',
    });
    expect(await put({ title: 'no' }, developer.token)).toMatchObject({ status: 403 });
    expect(await put({ title: 'no' }, stranger.token)).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await api('PUT', milestonesPath('/999999999'), { token: master.token, body: { title: 'x' } })).toMatchObject(
      { status: 404, body: { message: '404 Not found' } },
    );
  });

  it('are gone (403) when the project has issues and merge requests both disabled', async () => {
    const off = await createProject(owner.token, { issues_enabled: false, merge_requests_enabled: false });
    expect((await api('GET', milestonesPath('', off), { token: owner.token })).status).toBe(403);
    expect((await api('POST', milestonesPath('', off), { token: owner.token, body: { title: 'x' } })).status).toBe(403);
    expect(
      (await api('POST', labelsPath(off), { token: owner.token, body: { name: 'x', color: '#123456' } })).status,
    ).toBe(403);
    const issuesOff = await createProject(owner.token, { issues_enabled: false });
    expect((await api('GET', milestonesPath('', issuesOff), { token: owner.token })).status).toBe(200);
  });
});

describe('issues with labels and a milestone', () => {
  it('take labels (made on the fly in the default colour) and a milestone, and show the Milestone entity', async () => {
    const milestone = (
      await api('POST', milestonesPath(), { token: master.token, body: { title: 'Sprint 1', due_date: '2027-02-01' } })
    ).body;
    const res = await api('POST', issuesPath(), {
      token: reporter.token,
      body: { title: 'Planned', labels: 'fly-one, fly-two', milestone_id: milestone.id },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      labels: ['fly-one', 'fly-two'],
      milestone: {
        id: milestone.id,
        iid: milestone.iid,
        project_id: project.id,
        title: 'Sprint 1',
        state: 'active',
        due_date: '2027-02-01',
      },
    });
    expect(Object.keys(res.body.milestone).sort()).toEqual([
      'created_at',
      'description',
      'due_date',
      'id',
      'iid',
      'project_id',
      'state',
      'title',
      'updated_at',
    ]);
    const labels = await api('GET', labelsPath(), { token: guest.token, query: { per_page: 100 } });
    expect(labels.body).toEqual(
      expect.arrayContaining([
        { name: 'fly-one', color: '#428BCA' },
        { name: 'fly-two', color: '#428BCA' },
      ]),
    );
    expect((await api('GET', issuesPath(`/${res.body.id}`), { token: guest.token })).body.milestone).toMatchObject({
      id: milestone.id,
    });
    const plain = await api('POST', issuesPath(), { token: owner.token, body: { title: 'No milestone' } });
    expect(plain.body.milestone).toBeNull();
  });

  it("refuses label names GitLab would not save (400, nothing made) and ignores a Guest's milestone", async () => {
    const milestone = (
      await api('POST', milestonesPath(), { token: master.token, body: { title: 'Guests cannot set' } })
    ).body;
    const refused = await api('POST', issuesPath(), {
      token: owner.token,
      body: { title: 'Bad', labels: 'fine-label,a&b' },
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: { labels: { 'a&b': { title: ['is invalid'] } } } },
    ]);
    expect(names(await api('GET', labelsPath(), { token: owner.token, query: { per_page: 100 } }))).not.toContain(
      'fine-label',
    );
    // filter_params: below Reporter (no admin_issue) the milestone is not taken.
    const byGuest = await api('POST', issuesPath(), {
      token: guest.token,
      body: { title: 'From a guest', milestone_id: milestone.id },
    });
    expect([byGuest.status, byGuest.body.milestone]).toEqual([201, null]);
  });

  it("refuses label names longer than 255 characters on issues (400 in GitLab's labels shape, never a 500), making none", async () => {
    const own = await createProject(owner.token);
    const made = await api('POST', issuesPath('', own), {
      token: owner.token,
      body: { title: 'Long label', labels: `kept-out,${LONG_NAME}` },
    });
    expect([made.status, made.body]).toEqual([400, { message: { labels: { [LONG_NAME]: { title: TOO_LONG } } } }]);
    const huge = await api('POST', issuesPath('', own), {
      token: owner.token,
      body: { title: 'Huge label', labels: HUGE_NAME },
    });
    expect([huge.status, huge.body]).toEqual([400, { message: { labels: { [HUGE_NAME]: { title: TOO_LONG } } } }]);
    const issue = (
      await api('POST', issuesPath('', own), { token: owner.token, body: { title: 'Plain', labels: 'short' } })
    ).body;
    const put = await api('PUT', issuesPath(`/${issue.id}`, own), {
      token: owner.token,
      body: { labels: `short,${HUGE_NAME}` },
    });
    expect([put.status, put.body]).toEqual([400, { message: { labels: { [HUGE_NAME]: { title: TOO_LONG } } } }]);
    expect((await api('GET', issuesPath(`/${issue.id}`, own), { token: owner.token })).body.labels).toEqual(['short']);
    expect(names(await api('GET', labelsPath(own), { token: owner.token }))).toEqual(['short']);
  });

  it("counts another project's milestone as none, removes it with milestone_id=0, and notes milestone changes", async () => {
    const milestone = (await api('POST', milestonesPath(), { token: master.token, body: { title: 'Mine' } })).body;
    const other = await createProject(owner.token);
    const foreign = (await api('POST', milestonesPath('', other), { token: owner.token, body: { title: 'Not yours' } }))
      .body;
    const issue = (
      await api('POST', issuesPath(), { token: reporter.token, body: { title: 'Moves', milestone_id: foreign.id } })
    ).body;
    expect(issue.milestone).toBeNull();
    expect(
      (await api('PUT', issuesPath(`/${issue.id}`), { token: reporter.token, body: { milestone_id: milestone.id } }))
        .body.milestone,
    ).toMatchObject({ id: milestone.id, title: 'Mine' });
    expect(
      (await api('PUT', issuesPath(`/${issue.id}`), { token: reporter.token, body: { milestone_id: foreign.id } })).body
        .milestone,
    ).toBeNull();
    await api('PUT', issuesPath(`/${issue.id}`), { token: reporter.token, body: { milestone_id: milestone.id } });
    expect(
      (await api('PUT', issuesPath(`/${issue.id}`), { token: reporter.token, body: { milestone_id: 0 } })).body
        .milestone,
    ).toBeNull();
    const notes = await api('GET', issuesPath(`/${issue.id}/notes`), { token: reporter.token });
    expect(notes.body.map((n: { body: string; system: boolean }) => [n.body, n.system])).toEqual([
      ['Milestone changed to Mine', true],
      ['Milestone removed', true],
      ['Milestone changed to Mine', true],
      ['Milestone removed', true],
    ]);
  });

  it('filter by milestone title and by labels; a milestone lists its issues (paginated)', async () => {
    const own = await createProject(owner.token);
    await addMember(own.id, guest.id, 10);
    const m1 = (await api('POST', milestonesPath('', own), { token: owner.token, body: { title: 'v1' } })).body;
    const m2 = (await api('POST', milestonesPath('', own), { token: owner.token, body: { title: 'v2' } })).body;
    const a = (
      await api('POST', issuesPath('', own), {
        token: owner.token,
        body: { title: 'a', milestone_id: m1.id, labels: 'red' },
      })
    ).body;
    const b = (
      await api('POST', issuesPath('', own), {
        token: owner.token,
        body: { title: 'b', milestone_id: m1.id, labels: 'blue' },
      })
    ).body;
    const c = (
      await api('POST', issuesPath('', own), {
        token: owner.token,
        body: { title: 'c', milestone_id: m2.id, labels: 'red' },
      })
    ).body;
    await api('POST', issuesPath('', own), { token: owner.token, body: { title: 'd' } });
    expect(ids(await api('GET', issuesPath('', own), { token: guest.token, query: { milestone: 'v1' } }))).toEqual([
      b.id,
      a.id,
    ]);
    expect(
      ids(await api('GET', issuesPath('', own), { token: guest.token, query: { milestone: 'v1', labels: 'red' } })),
    ).toEqual([a.id]);
    expect(
      ids(await api('GET', issuesPath('', own), { token: guest.token, query: { milestone: 'none-such' } })),
    ).toEqual([]);
    expect(
      ids(await api('GET', issuesPath('', own), { token: guest.token, query: { labels: 'red', sort: 'asc' } })),
    ).toEqual([a.id, c.id]);
    const ofMilestone = await api('GET', milestonesPath(`/${m1.id}/issues`, own), { token: guest.token });
    expect([ofMilestone.status, ids(ofMilestone)]).toEqual([200, [b.id, a.id]]);
    expectPaginationHeaders(ofMilestone, 2);
    expect(ofMilestone.body[0]).toMatchObject({ title: 'b', labels: ['blue'], milestone: { id: m1.id, title: 'v1' } });
    const second = await api('GET', milestonesPath(`/${m1.id}/issues`, own), {
      token: guest.token,
      query: { per_page: 1, page: 2 },
    });
    expect(ids(second)).toEqual([a.id]);
    expectPaginationHeaders(second, 2, 1);
    expect(await api('GET', milestonesPath(`/${m1.id}/issues`), { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect((await api('GET', milestonesPath(`/${m1.id}/issues`, own), { token: stranger.token })).status).toBe(404);
  });
});

describe('merge requests with labels and a milestone', () => {
  let wc: string;
  const mrPath = (id: number) => `/projects/${project.id}/merge_request/${id}`;

  async function branch(name: string) {
    await git(wc, 'checkout', '-q', 'master');
    await git(wc, 'checkout', '-q', '-B', name);
    await commitFiles(wc, { [`${name}.txt`]: `${name}\n` }, `work on ${name}`);
    ok(
      await git(wc, 'push', '-q', '--force', remoteUrl(project.path_with_namespace, owner.username, owner.token), name),
    );
    await git(wc, 'checkout', '-q', 'master');
  }

  beforeAll(async () => {
    wc = await workingCopy({ 'README.md': 'hello\n' });
    ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
  });

  it('take labels (made on the fly) and a milestone, show the Milestone entity, and follow label renames and removals', async () => {
    const milestone = (await api('POST', milestonesPath(), { token: master.token, body: { title: 'MR milestone' } }))
      .body;
    await branch('lm-feature');
    const made = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: developer.token,
      body: {
        source_branch: 'lm-feature',
        target_branch: 'master',
        title: 'With labels',
        labels: 'mr-fly, mr-other',
        milestone_id: milestone.id,
      },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      labels: ['mr-fly', 'mr-other'],
      milestone: {
        id: milestone.id,
        iid: milestone.iid,
        title: 'MR milestone',
        state: 'active',
        project_id: project.id,
      },
    });
    expect(names(await api('GET', labelsPath(), { token: guest.token, query: { per_page: 100 } }))).toEqual(
      expect.arrayContaining(['mr-fly', 'mr-other']),
    );
    const listed = await api('GET', `/projects/${project.id}/merge_requests`, {
      token: reporter.token,
      query: { iid: made.body.iid },
    });
    expect(listed.body[0].milestone).toMatchObject({ id: milestone.id });

    const foreign = (
      await api('POST', milestonesPath('', await createProject(owner.token)), {
        token: owner.token,
        body: { title: 'Elsewhere' },
      })
    ).body;
    expect(
      (await api('PUT', mrPath(made.body.id), { token: developer.token, body: { milestone_id: foreign.id } })).body
        .milestone,
    ).toBeNull();
    expect(
      (
        await api('PUT', mrPath(made.body.id), {
          token: developer.token,
          body: { milestone_id: milestone.id, labels: 'mr-fly,mr-third' },
        })
      ).body,
    ).toMatchObject({
      labels: ['mr-fly', 'mr-third'],
      milestone: { id: milestone.id },
    });
    expect(names(await api('GET', labelsPath(), { token: guest.token, query: { per_page: 100 } }))).toContain(
      'mr-third',
    );
    const refused = await api('PUT', mrPath(made.body.id), { token: developer.token, body: { labels: 'ok,why?' } });
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: { labels: { 'why?': { title: ['is invalid'] } } } },
    ]);

    // Labels belong to the project: a rename or removal reaches the merge request too.
    await api('PUT', labelsPath(), { token: reporter.token, body: { name: 'mr-fly', new_name: 'mr-renamed' } });
    await api('DELETE', labelsPath(), { token: reporter.token, body: { name: 'mr-third' } });
    await eventually(async () => {
      expect((await api('GET', mrPath(made.body.id), { token: reporter.token })).body.labels).toEqual(['mr-renamed']);
    });
    expect(
      (await api('PUT', mrPath(made.body.id), { token: developer.token, body: { milestone_id: 0 } })).body.milestone,
    ).toBeNull();
  });

  it('refuses label names longer than 255 characters (400, never a 500), and makes no labels for a merge request refused as a duplicate (409)', async () => {
    await branch('lm-long');
    const create = (body: Record<string, unknown>) =>
      api('POST', `/projects/${project.id}/merge_requests`, {
        token: developer.token,
        body: { source_branch: 'lm-long', target_branch: 'master', ...body },
      });
    const long = await create({ title: 'Long label', labels: `mr-kept-out,${LONG_NAME}` });
    expect([long.status, long.body]).toEqual([400, { message: { labels: { [LONG_NAME]: { title: TOO_LONG } } } }]);
    const huge = await create({ title: 'Huge label', labels: HUGE_NAME });
    expect([huge.status, huge.body]).toEqual([400, { message: { labels: { [HUGE_NAME]: { title: TOO_LONG } } } }]);
    const made = await create({ title: 'Opened once', labels: 'mr-first' });
    expect(made.status).toBe(201);
    const again = await create({ title: 'Opened twice', labels: 'mr-never-made' });
    expect([again.status, again.body]).toEqual([
      409,
      { message: 'Cannot Create: This merge request already exists: ["Opened once"]' },
    ]);
    const put = await api('PUT', mrPath(made.body.id), {
      token: developer.token,
      body: { labels: `mr-first,${LONG_NAME}` },
    });
    expect([put.status, put.body]).toEqual([400, { message: { labels: { [LONG_NAME]: { title: TOO_LONG } } } }]);
    expect((await api('GET', mrPath(made.body.id), { token: developer.token })).body.labels).toEqual(['mr-first']);
    const labels = names(await api('GET', labelsPath(), { token: guest.token, query: { per_page: 100 } }));
    expect(labels).toContain('mr-first');
    expect(labels).not.toContain('mr-kept-out');
    expect(labels).not.toContain('mr-never-made');
  });

  it("takes a milestone from a fork's merge request only when its author may administer merge requests in the target (upstream) project", async () => {
    const upstream = await createProject(owner.token, { visibility_level: 10 });
    const milestone = (
      await api('POST', milestonesPath('', upstream), { token: owner.token, body: { title: 'Upstream plan' } })
    ).body;
    const contributor = await createUser();
    ok(
      await git(
        await workingCopy({ 'base.txt': 'base\n' }),
        'push',
        remoteUrl(upstream.path_with_namespace, owner.username, owner.token),
        'master',
      ),
    );
    const fork = (await api('POST', `/projects/fork/${upstream.id}`, { token: contributor.token })).body;
    await eventually(async () =>
      expect(
        (await api('GET', `/projects/${fork.id}/repository/branches`, { token: contributor.token })).body,
      ).toHaveLength(1),
    );
    const scratch = mkdtempSync(join(tmpdir(), 'hub-fork-'));
    ok(
      await git(
        scratch,
        'clone',
        '-q',
        remoteUrl(fork.path_with_namespace, contributor.username, contributor.token),
        'fork',
      ),
    );
    const forkWc = join(scratch, 'fork');
    await commitFiles(forkWc, { 'contribution.txt': 'from the fork\n' }, 'contribution');
    ok(
      await git(
        forkWc,
        'push',
        '-q',
        remoteUrl(fork.path_with_namespace, contributor.username, contributor.token),
        'master:contribution',
      ),
    );

    // The contributor owns the fork but is nobody in the upstream, where the merge request lives.
    const res = await api('POST', `/projects/${fork.id}/merge_requests`, {
      token: contributor.token,
      body: {
        source_branch: 'contribution',
        target_branch: 'master',
        title: 'From a fork',
        target_project_id: upstream.id,
        milestone_id: milestone.id,
        labels: 'from-fork',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      project_id: upstream.id,
      source_project_id: fork.id,
      labels: ['from-fork'],
      milestone: null,
    });
    const upstreamPath = `/projects/${upstream.id}/merge_request/${res.body.id}`;
    expect(
      (
        await api('PUT', upstreamPath, {
          token: contributor.token,
          body: { milestone_id: milestone.id, title: 'Still from a fork' },
        })
      ).body,
    ).toMatchObject({ title: 'Still from a fork', milestone: null });
    expect(
      (await api('PUT', upstreamPath, { token: owner.token, body: { milestone_id: milestone.id } })).body.milestone,
    ).toMatchObject({ id: milestone.id, title: 'Upstream plan' });
    expect((await api('GET', upstreamPath, { token: owner.token })).body.milestone).toMatchObject({ id: milestone.id });
  });
});

describe('GET /issues', () => {
  it("lists the signed-in user's own issues across projects, newest first, with state and labels filters, ordering and pagination headers", async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    const mine = await createProject(alice.token);
    const shared = await createProject(owner.token, { visibility_level: 20 });
    const a1 = (await api('POST', issuesPath('', mine), { token: alice.token, body: { title: 'a1', labels: 'x' } }))
      .body;
    const a2 = (await api('POST', issuesPath('', shared), { token: alice.token, body: { title: 'a2', labels: 'y' } }))
      .body;
    const b1 = (await api('POST', issuesPath('', shared), { token: bob.token, body: { title: 'b1', labels: 'x' } }))
      .body;
    await api('PUT', issuesPath(`/${a1.id}`, mine), { token: alice.token, body: { state_event: 'close' } });

    const alices = await api('GET', '/issues', { token: alice.token });
    expect([alices.status, ids(alices)]).toEqual([200, [a2.id, a1.id]]);
    expectPaginationHeaders(alices, 2);
    expect(alices.body[0]).toMatchObject({
      title: 'a2',
      project_id: shared.id,
      labels: ['y'],
      milestone: null,
      author: { id: alice.id },
    });
    const bobs = await api('GET', '/issues', { token: bob.token });
    expect(ids(bobs)).toEqual([b1.id]);
    expectPaginationHeaders(bobs, 1);

    expect(ids(await api('GET', '/issues', { token: alice.token, query: { state: 'opened' } }))).toEqual([a2.id]);
    expect(ids(await api('GET', '/issues', { token: alice.token, query: { state: 'closed' } }))).toEqual([a1.id]);
    expect(ids(await api('GET', '/issues', { token: alice.token, query: { labels: 'x' } }))).toEqual([a1.id]);
    expect(ids(await api('GET', '/issues', { token: alice.token, query: { sort: 'asc' } }))).toEqual([a1.id, a2.id]);
    // The close touched a1 last.
    expect(ids(await api('GET', '/issues', { token: alice.token, query: { order_by: 'updated_at' } }))).toEqual([
      a1.id,
      a2.id,
    ]);
    const paged = await api('GET', '/issues', { token: alice.token, query: { per_page: 1, page: 2 } });
    expect(ids(paged)).toEqual([a1.id]);
    expectPaginationHeaders(paged, 2, 1);
    expect(paged.headers.get('link')).toContain('/api/v3/issues?');
    expect((await api('GET', '/issues', { token: null })).status).toBe(401);
    // Sudo: an admin sees another user's list as that user.
    expect(ids(await api('GET', '/issues', { query: { sudo: bob.username } }))).toEqual([b1.id]);
  });
});
