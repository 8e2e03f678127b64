import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let project: TestProject;
let wc: string;

/** Pushes a branch `name` off master with one file changed. */
async function branch(name: string, files: Record<string, string>) {
  await git(wc, 'checkout', '-q', 'master');
  await git(wc, 'checkout', '-q', '-B', name);
  await commitFiles(wc, files, `work on ${name}`);
  ok(await git(wc, 'push', '-q', '--force', remoteUrl(project.path_with_namespace, owner.username, owner.token), name));
  await git(wc, 'checkout', '-q', 'master');
}

const mrPath = (id: number, suffix = '') => `/projects/${project.id}/merge_request/${id}${suffix}`;
const create = (body: Record<string, unknown>, token = developer.token) =>
  api('POST', `/projects/${project.id}/merge_requests`, { token, body });

beforeAll(async () => {
  owner = await createUser();
  developer = await createUser();
  reporter = await createUser();
  project = await createProject(owner.token);
  await addMember(project.id, developer.id, 30);
  await addMember(project.id, reporter.id, 20);
  wc = await workingCopy({ 'README.md': 'line one\n', 'shared.txt': 'base\n' });
  ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
});

describe('creating merge requests', () => {
  it('opens one (201) with the v3 fields, global id and per-project iid', async () => {
    await branch('feature-a', { 'a.txt': 'a\n' });
    const res = await create({
      source_branch: 'feature-a',
      target_branch: 'master',
      title: 'Add a',
      description: 'why',
      assignee_id: owner.id,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      iid: expect.any(Number),
      project_id: project.id,
      source_project_id: project.id,
      target_project_id: project.id,
      title: 'Add a',
      description: 'why',
      state: 'opened',
      source_branch: 'feature-a',
      target_branch: 'master',
      upvotes: 0,
      downvotes: 0,
      work_in_progress: false,
      labels: [],
      // UserBasic's avatar_url and web_url too (GitLab 7.14), in the full form's superset.
      author: {
        id: developer.id,
        username: developer.username,
        email: developer.email,
        state: 'active',
        avatar_url: expect.any(String),
        web_url: `${stack.externalUrl}/u/${developer.username}`,
      },
      assignee: { id: owner.id, username: owner.username, web_url: `${stack.externalUrl}/u/${owner.username}` },
    });
    expect(res.body.id).not.toBe(undefined);
  });

  it.each<[string, Record<string, unknown>, number, unknown]>([
    ['no title', { source_branch: 'x', target_branch: 'master' }, 400, '400 (Bad request) "title" not given'],
    // required_attributes! used present?: whitespace only is not given.
    [
      'a title of spaces',
      { source_branch: 'x', target_branch: 'master', title: '   ' },
      400,
      '400 (Bad request) "title" not given',
    ],
    ['no source branch', { target_branch: 'master', title: 't' }, 400, '400 (Bad request) "source_branch" not given'],
    [
      'the same source and target',
      { source_branch: 'master', target_branch: 'master', title: 't' },
      422,
      'You can not use same project/branch for source and target',
    ],
    [
      'an unknown branch',
      { source_branch: 'nope', target_branch: 'master', title: 't' },
      400,
      { source_branch: ['does not exist'] },
    ],
  ])('refuses %s', async (_name, body, status, message) => {
    const res = await create(body);
    expect([res.status, res.body]).toEqual([status, { message }]);
  });

  it('refuses a second open merge request for the same branches with 409', async () => {
    await branch('feature-dup', { 'dup.txt': 'd\n' });
    expect((await create({ source_branch: 'feature-dup', target_branch: 'master', title: 'one' })).status).toBe(201);
    const second = await create({ source_branch: 'feature-dup', target_branch: 'master', title: 'two' });
    // GitLab's validate_branches names the merge request already there, not the new one.
    expect([second.status, second.body]).toEqual([
      409,
      { message: 'Cannot Create: This merge request already exists: ["one"]' },
    ]);
  });

  it('gives concurrent creates distinct iids', async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'];
    for (const name of names) await branch(name, { [`${name}.txt`]: name });
    const results = await Promise.all(
      names.map((name) => create({ source_branch: name, target_branch: 'master', title: name })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const iids = results.map((r) => r.body.iid);
    expect(new Set(iids).size).toBe(names.length);
  });

  it('lets developers create, not reporters', async () => {
    await branch('feature-rep', { 'r.txt': 'r\n' });
    expect(
      (await create({ source_branch: 'feature-rep', target_branch: 'master', title: 'r' }, reporter.token)).status,
    ).toBe(403);
  });
});

describe('reading merge requests', () => {
  it('lists with state, iid, order and pagination headers; single by id (singular and plural paths)', async () => {
    await branch('feature-list', { 'l.txt': 'l\n' });
    const made = (await create({ source_branch: 'feature-list', target_branch: 'master', title: 'Listed' })).body;
    const list = await api('GET', `/projects/${project.id}/merge_requests`, {
      token: reporter.token,
      query: { state: 'opened', per_page: 2 },
    });
    expect(list.status).toBe(200);
    expect(list.body[0].id).toBe(made.id);
    expect(list.headers.get('x-per-page')).toBe('2');
    expect(Number(list.headers.get('x-total'))).toBeGreaterThan(2);
    expect(list.headers.get('link')).toContain('rel="next"');
    const byIid = await api('GET', `/projects/${project.id}/merge_requests`, {
      token: reporter.token,
      query: { iid: made.iid },
    });
    expect(byIid.body.map((m: { id: number }) => m.id)).toEqual([made.id]);
    const asc = await api('GET', `/projects/${project.id}/merge_requests`, {
      token: reporter.token,
      query: { order_by: 'updated_at', sort: 'asc' },
    });
    expect(asc.body[0].id).toBeLessThan(made.id);
    expect((await api('GET', mrPath(made.id), { token: reporter.token })).body.title).toBe('Listed');
    expect(
      (await api('GET', `/projects/${project.id}/merge_requests/${made.id}`, { token: reporter.token })).body.id,
    ).toBe(made.id);
    expect((await api('GET', mrPath(999999), { token: reporter.token })).status).toBe(404);
    expect(
      (await api('GET', `/projects/${project.id}/merge_requests`, { token: reporter.token, query: { state: 'bogus' } }))
        .status,
    ).toBe(400);
  });

  it('shows the changes with files (diff entries)', async () => {
    await branch('feature-changes', { 'changed.txt': 'new file\n' });
    const made = (await create({ source_branch: 'feature-changes', target_branch: 'master', title: 'Changes' })).body;
    const res = await api('GET', mrPath(made.id, '/changes'), { token: reporter.token });
    expect(res.status).toBe(200);
    expect(res.body.files).toEqual([
      expect.objectContaining({
        old_path: 'changed.txt',
        new_path: 'changed.txt',
        new_file: true,
        a_mode: null,
        b_mode: '100644',
        diff: expect.stringContaining('+new file'),
      }),
    ]);
    for (const field of ['created_at', 'updated_at', 'source_project_id', 'target_project_id', 'labels', 'milestone'])
      expect(res.body).toHaveProperty(field);
  });

  it('hides merge requests of private projects from strangers', async () => {
    const stranger = await createUser();
    expect((await api('GET', `/projects/${project.id}/merge_requests`, { token: stranger.token })).status).toBe(404);
  });
});

describe('the state table', () => {
  it('closes, reopens (state reopened, listed as opened), and updates fields', async () => {
    await branch('feature-states', { 's.txt': 's\n' });
    const made = (await create({ source_branch: 'feature-states', target_branch: 'master', title: 'States' })).body;
    const closed = await api('PUT', mrPath(made.id), { token: developer.token, body: { state_event: 'close' } });
    expect([closed.status, closed.body.state]).toEqual([200, 'closed']);
    const reopened = await api('PUT', mrPath(made.id), {
      token: developer.token,
      body: { state_event: 'reopen', title: 'WIP: States again', description: 'd2' },
    });
    expect(reopened.body).toMatchObject({
      state: 'reopened',
      title: 'WIP: States again',
      description: 'd2',
      work_in_progress: true,
    });
    const opened = await api('GET', `/projects/${project.id}/merge_requests`, {
      token: developer.token,
      query: { state: 'opened', iid: made.iid },
    });
    expect(opened.body.map((m: { id: number }) => m.id)).toEqual([made.id]);
    expect((await api('PUT', mrPath(made.id), { token: developer.token, body: { source_branch: 'x' } })).status).toBe(
      400,
    );
    expect(
      (await api('PUT', mrPath(made.id), { token: developer.token, body: { state_event: 'explode' } })).status,
    ).toBe(400);
    // Work in progress cannot be accepted.
    expect((await api('PUT', mrPath(made.id, '/merge'), { token: owner.token })).status).toBe(405);
  });

  it('accepts: a real merge commit on the target, visible through the repository routes', async () => {
    await branch('feature-merge', { 'merged.txt': 'merged content\n' });
    const made = (await create({ source_branch: 'feature-merge', target_branch: 'master', title: 'Merge me' })).body;
    const res = await api('PUT', mrPath(made.id, '/merge'), {
      token: owner.token,
      body: { merge_commit_message: 'Merged by the test' },
    });
    expect([res.status, res.body.state]).toEqual([200, 'merged']);
    const master = await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token });
    expect(master.body.commit.message).toBe('Merged by the test');
    expect(master.body.commit.parents).toHaveLength(2);
    const blob = await api('GET', `/projects/${project.id}/repository/blobs/master`, {
      token: owner.token,
      query: { filepath: 'merged.txt' },
    });
    expect(blob.text).toBe('merged content\n');
    const again = await api('PUT', mrPath(made.id, '/merge'), { token: owner.token });
    expect([again.status, again.body]).toEqual([405, { message: '405 Method Not Allowed' }]);
    await eventually(async () => {
      const events = await api('GET', `/projects/${project.id}/events`, { token: owner.token });
      expect(
        events.body.find(
          (e: { action_name: string; target_id: number }) => e.action_name === 'accepted' && e.target_id === made.id,
        ),
      ).toMatchObject({
        target_type: 'MergeRequest',
        target_title: 'Merge me',
      });
    });
  });

  it('refuses a closed merge request with 405 and a conflicting one with 405 "Branch cannot be merged"', async () => {
    await branch('feature-closed', { 'closed.txt': 'c\n' });
    const closedMr = (await create({ source_branch: 'feature-closed', target_branch: 'master', title: 'Closed' })).body;
    await api('PUT', mrPath(closedMr.id), { token: developer.token, body: { state_event: 'close' } });
    expect((await api('PUT', mrPath(closedMr.id, '/merge'), { token: owner.token })).body).toEqual({
      message: '405 Method Not Allowed',
    });

    await branch('feature-conflict', { 'shared.txt': 'from the branch\n' });
    await git(wc, 'checkout', '-q', 'master');
    await git(wc, 'pull', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master');
    await commitFiles(wc, { 'shared.txt': 'from master\n' }, 'master edits shared');
    ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
    const conflicting = (
      await create({ source_branch: 'feature-conflict', target_branch: 'master', title: 'Conflict' })
    ).body;
    const res = await api('PUT', mrPath(conflicting.id, '/merge'), { token: owner.token });
    expect([res.status, res.body]).toEqual([405, { message: 'Branch cannot be merged' }]);
    expect((await api('GET', mrPath(conflicting.id), { token: owner.token })).body.state).toBe('opened');
  });

  it('gives 401 to a developer accepting into a protected branch; two concurrent accepts merge once', async () => {
    await branch('feature-race', { 'race.txt': 'race\n' });
    const made = (await create({ source_branch: 'feature-race', target_branch: 'master', title: 'Race' })).body;
    // master was protected by its first push.
    await eventually(async () =>
      expect(
        (await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body.protected,
      ).toBe(true),
    );
    expect((await api('PUT', mrPath(made.id, '/merge'), { token: developer.token })).status).toBe(401);
    const before = (await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body
      .commit.id;
    const results = await Promise.all([1, 2].map(() => api('PUT', mrPath(made.id, '/merge'), { token: owner.token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 405]);
    const after = (await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body
      .commit;
    expect(after.parents.map((p: { id: string }) => p.id)[0]).toBe(before);
  });
});

describe('comments and notes', () => {
  it('a comment posted on one route shows on the other, with votes counted', async () => {
    await branch('feature-notes', { 'n.txt': 'n\n' });
    const made = (await create({ source_branch: 'feature-notes', target_branch: 'master', title: 'Talk about me' }))
      .body;
    const comment = await api('POST', mrPath(made.id, '/comments'), {
      token: reporter.token,
      body: { note: 'Looks good' },
    });
    expect(comment.status).toBe(201);
    expect(comment.body).toMatchObject({
      note: 'Looks good',
      author: { id: reporter.id, username: reporter.username },
    });
    const vote = await api('POST', `/projects/${project.id}/merge_requests/${made.id}/notes`, {
      token: developer.token,
      body: { body: ':+1:' },
    });
    expect(vote.status).toBe(201);
    // One Note entity for every kind of note, as GitLab had: merge request notes show system and the votes too.
    expect(vote.body).toEqual({
      id: expect.any(Number),
      body: ':+1:',
      attachment: null,
      author: expect.objectContaining({ id: developer.id }),
      created_at: expect.any(String),
      system: false,
      upvote: true,
      downvote: false,
    });
    await api('POST', mrPath(made.id, '/comments'), { token: owner.token, body: { note: '-1' } });

    const notes = await api('GET', `/projects/${project.id}/merge_requests/${made.id}/notes`, {
      token: reporter.token,
    });
    expect(notes.body.map((n: { body: string }) => n.body)).toEqual(['Looks good', ':+1:', '-1']);
    expect(notes.headers.get('x-total')).toBe('3');
    const comments = await api('GET', mrPath(made.id, '/comments'), { token: reporter.token });
    expect(comments.body).toEqual([
      { note: 'Looks good', author: expect.objectContaining({ id: reporter.id }) },
      { note: ':+1:', author: expect.objectContaining({ id: developer.id }) },
      { note: '-1', author: expect.objectContaining({ id: owner.id }) },
    ]);
    const mr = await api('GET', mrPath(made.id), { token: reporter.token });
    expect([mr.body.upvotes, mr.body.downvotes]).toEqual([1, 1]);
    const single = await api('GET', `/projects/${project.id}/merge_requests/${made.id}/notes/${vote.body.id}`, {
      token: reporter.token,
    });
    expect(single.body.body).toBe(':+1:');
  });

  it('requires the note or body, lets authors and Masters edit, nobody else', async () => {
    await branch('feature-edit', { 'e.txt': 'e\n' });
    const made = (await create({ source_branch: 'feature-edit', target_branch: 'master', title: 'Edit notes' })).body;
    expect((await api('POST', mrPath(made.id, '/comments'), { token: reporter.token, body: {} })).body).toEqual({
      message: '400 (Bad request) "note" not given',
    });
    expect(
      (
        await api('POST', `/projects/${project.id}/merge_requests/${made.id}/notes`, {
          token: reporter.token,
          body: {},
        })
      ).body,
    ).toEqual({ message: '400 (Bad request) "body" not given' });
    const note = (
      await api('POST', `/projects/${project.id}/merge_requests/${made.id}/notes`, {
        token: reporter.token,
        body: { body: 'typo' },
      })
    ).body;
    const path = `/projects/${project.id}/merge_requests/${made.id}/notes/${note.id}`;
    expect((await api('PUT', path, { token: developer.token, body: { body: 'not yours' } })).status).toBe(403);
    expect((await api('PUT', path, { token: reporter.token, body: { body: 'fixed' } })).body.body).toBe('fixed');
    expect((await api('PUT', path, { token: owner.token, body: { body: 'moderated' } })).body.body).toBe('moderated');
  });

  it('adds system notes on state changes, and 404s notes of another project', async () => {
    await branch('feature-system', { 'sys.txt': 's\n' });
    const made = (await create({ source_branch: 'feature-system', target_branch: 'master', title: 'System notes' }))
      .body;
    await api('PUT', mrPath(made.id), { token: developer.token, body: { state_event: 'close' } });
    await eventually(async () => {
      const notes = await api('GET', `/projects/${project.id}/merge_requests/${made.id}/notes`, { token: owner.token });
      expect(notes.body.map((n: { body: string }) => n.body)).toEqual(['Status changed to closed']);
    });
    const other = await createProject(owner.token);
    const note = (await api('POST', mrPath(made.id, '/comments'), { token: owner.token, body: { note: 'here' } })).body;
    expect(note.note).toBe('here');
    expect(
      (await api('GET', `/projects/${other.id}/merge_requests/${made.id}/notes`, { token: owner.token })).status,
    ).toBe(404);
    expect(
      (
        await api('POST', `/projects/${other.id}/merge_requests/${made.id}/notes`, {
          token: owner.token,
          body: { body: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('more of the state table and permissions', () => {
  it('merges through an update with state_event=merge', async () => {
    await branch('feature-update-merge', { 'um.txt': 'um\n' });
    const made = (
      await create({ source_branch: 'feature-update-merge', target_branch: 'master', title: 'Update merge' })
    ).body;
    const res = await api('PUT', mrPath(made.id), { token: owner.token, body: { state_event: 'merge' } });
    expect([res.status, res.body.state]).toEqual([200, 'merged']);
    const blob = await api('GET', `/projects/${project.id}/repository/blobs/master`, {
      token: owner.token,
      query: { filepath: 'um.txt' },
    });
    expect(blob.text).toBe('um\n');
  });

  it('answers 403 to reads when the project has merge requests disabled (GitLab 7.14: authorize! :read_merge_request)', async () => {
    const closedOff = await createProject(owner.token, { merge_requests_enabled: false });
    for (const route of [
      `/projects/${closedOff.id}/merge_requests`,
      `/projects/${closedOff.id}/merge_request/1`,
      `/projects/${closedOff.id}/merge_request/1/changes`,
    ]) {
      const res = await api('GET', route, { token: owner.token });
      expect([route, res.status, res.body]).toEqual([route, 403, { message: '403 Forbidden' }]);
    }
  });

  it("lets its author, its assignee and Masters change a merge request, as GitLab 7.14's modify_merge_request: other Developers and Reporters read it only, over REST and GraphQL", async () => {
    const [otherDeveloper, assignee, master] = [await createUser(), await createUser(), await createUser()];
    await addMember(project.id, otherDeveloper.id, 30);
    await addMember(project.id, assignee.id, 20);
    await addMember(project.id, master.id, 40);
    await branch('feature-perm', { 'p.txt': 'p\n' });
    const made = (
      await create({ source_branch: 'feature-perm', target_branch: 'master', title: 'Perms', assignee_id: assignee.id })
    ).body;
    expect((await api('GET', mrPath(made.id), { token: reporter.token })).status).toBe(200);
    const change = (user: TestUser, body: Record<string, unknown>) =>
      api('PUT', mrPath(made.id), { token: user.token, body });
    for (const refused of [reporter, otherDeveloper])
      for (const body of [{ title: 'mine now' }, { state_event: 'close' }]) {
        const res = await change(refused, body);
        expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }]);
      }
    const RENAME = `mutation ($p: Int!, $id: Int!, $t: String!) { updateMergeRequest(input: { projectId: $p, mergeRequestId: $id, title: $t }) { mergeRequest { title } errors { code } } }`;
    const rename = (user: TestUser, title: string) =>
      graphql(RENAME, { p: project.id, id: made.id, t: title }, { 'PRIVATE-TOKEN': user.token });
    const refusedOverGraphql = await rename(otherDeveloper, 'mine now');
    expect(refusedOverGraphql.body.errors?.[0]).toMatchObject({
      message: '403 Forbidden',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await rename(assignee, 'by the assignee')).body.data).toEqual({
      updateMergeRequest: { mergeRequest: { title: 'by the assignee' }, errors: [] },
    });
    expect((await change(master, { title: 'by a master' })).body.title).toBe('by a master');
    expect((await change(developer, { title: 'by its author' })).body.title).toBe('by its author');
    expect((await change(assignee, { state_event: 'close' })).body.state).toBe('closed');
  });

  it('opens a merge request from a fork into its upstream, and merges it there', async () => {
    const upstream = await createProject(owner.token, { visibility_level: 10 });
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
        remoteUrl(fork.path_with_namespace, contributor.username, contributor.token),
        'master:contribution',
      ),
    );

    const res = await api('POST', `/projects/${fork.id}/merge_requests`, {
      token: contributor.token,
      body: {
        source_branch: 'contribution',
        target_branch: 'master',
        title: 'From a fork',
        target_project_id: upstream.id,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      project_id: upstream.id,
      source_project_id: fork.id,
      target_project_id: upstream.id,
    });
    // GitLab 7.14's validate_fork: only a fork may target another project (not the other way round).
    const backwards = await api('POST', `/projects/${upstream.id}/merge_requests`, {
      token: owner.token,
      body: {
        source_branch: 'master',
        target_branch: 'contribution',
        title: 'Upstream into the fork',
        target_project_id: fork.id,
      },
    });
    expect([backwards.status, backwards.body]).toEqual([
      422,
      { message: 'Source project is not a fork of target project' },
    ]);
    const listed = await api('GET', `/projects/${upstream.id}/merge_requests`, { token: owner.token });
    expect(listed.body.map((m: { id: number }) => m.id)).toContain(res.body.id);
    const changes = await api('GET', `/projects/${upstream.id}/merge_request/${res.body.id}/changes`, {
      token: owner.token,
    });
    expect(changes.body.files.map((f: { new_path: string }) => f.new_path)).toEqual(['contribution.txt']);
    expect(
      (await api('PUT', `/projects/${upstream.id}/merge_request/${res.body.id}/merge`, { token: owner.token })).body
        .state,
    ).toBe('merged');
    const blob = await api('GET', `/projects/${upstream.id}/repository/blobs/master`, {
      token: owner.token,
      query: { filepath: 'contribution.txt' },
    });
    expect(blob.text).toBe('from the fork\n');
    // No merge_commit_message: GitLab 7.14's MergeRequest#merge_commit_message (title, description, reference).
    const head = await api('GET', `/projects/${upstream.id}/repository/branches/master`, { token: owner.token });
    expect(head.body.commit.message.trimEnd()).toBe(
      `Merge branch 'contribution' into 'master'\n\nFrom a fork\n\n\n\nSee merge request !${res.body.iid}`,
    );
  });
});

describe('labels', () => {
  it('keeps the labels given on create and update (comma-separated) and shows them by name', async () => {
    await branch('feature-labels', { 'labels.txt': 'l\n' });
    const made = await create({
      source_branch: 'feature-labels',
      target_branch: 'master',
      title: 'Labelled',
      labels: 'ui, backend,ui',
    });
    expect([made.status, made.body.labels]).toEqual([201, ['backend', 'ui']]);
    expect((await api('GET', mrPath(made.body.id), { token: reporter.token })).body.labels).toEqual(['backend', 'ui']);
    expect((await api('GET', mrPath(made.body.id, '/changes'), { token: reporter.token })).body.labels).toEqual([
      'backend',
      'ui',
    ]);
    const listed = await api('GET', `/projects/${project.id}/merge_requests`, {
      token: reporter.token,
      query: { iid: made.body.iid },
    });
    expect(listed.body[0].labels).toEqual(['backend', 'ui']);
    // Update replaces them all; leaving labels out keeps them; an empty value removes them.
    const relabelled = await api('PUT', mrPath(made.body.id), {
      token: developer.token,
      body: new URLSearchParams({ labels: 'docs' }),
    });
    expect([relabelled.status, relabelled.body.labels]).toEqual([200, ['docs']]);
    expect(
      (await api('PUT', mrPath(made.body.id), { token: developer.token, body: { title: 'Labelled again' } })).body
        .labels,
    ).toEqual(['docs']);
    expect(
      (await api('PUT', mrPath(made.body.id), { token: developer.token, body: { labels: '' } })).body.labels,
    ).toEqual([]);
  });

  it('refuses label names GitLab would not save, changing nothing', async () => {
    await branch('feature-bad-labels', { 'bad-labels.txt': 'b\n' });
    const refused = await create({
      source_branch: 'feature-bad-labels',
      target_branch: 'master',
      title: 'Bad labels',
      labels: 'ok,a&b',
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: { labels: { 'a&b': { title: ['is invalid'] } } } },
    ]);
    const made = (
      await create({ source_branch: 'feature-bad-labels', target_branch: 'master', title: 'Bad labels', labels: 'ok' })
    ).body;
    const blank = await api('PUT', mrPath(made.id), {
      token: developer.token,
      body: { labels: 'x,,y', title: 'not this' },
    });
    expect([blank.status, blank.body]).toEqual([
      400,
      { message: { labels: { '': { title: ["can't be blank", 'is invalid'] } } } },
    ]);
    expect((await api('GET', mrPath(made.id), { token: developer.token })).body).toMatchObject({
      title: 'Bad labels',
      labels: ['ok'],
    });
  });

  it('does not filter the list by labels, as GitLab 7.14 did not', async () => {
    await branch('feature-label-list', { 'label-list.txt': 'x\n' });
    const made = (
      await create({ source_branch: 'feature-label-list', target_branch: 'master', title: 'Listed', labels: 'listed' })
    ).body;
    const list = await api('GET', `/projects/${project.id}/merge_requests`, {
      token: developer.token,
      query: { labels: 'no-such-label', per_page: 100 },
    });
    expect(list.status).toBe(200);
    expect(list.body.map((m: { id: number }) => m.id)).toContain(made.id);
  });
});

describe('what an update may not change', () => {
  it('refuses source_branch with exactly "Source branch cannot be changed", once the merge request is found and the caller may change it', async () => {
    await branch('feature-keep-source', { 'keep.txt': 'k\n' });
    const made = (await create({ source_branch: 'feature-keep-source', target_branch: 'master', title: 'Keep source' }))
      .body;
    const refused = await api('PUT', mrPath(made.id), {
      token: developer.token,
      body: { source_branch: 'elsewhere', title: 'not this' },
    });
    expect([refused.status, refused.body]).toEqual([400, { message: 'Source branch cannot be changed' }]);
    expect((await api('GET', mrPath(made.id), { token: developer.token })).body).toMatchObject({
      source_branch: 'feature-keep-source',
      title: 'Keep source',
    });
    // GitLab's order: the project, the merge request, the caller's right, then the parameter.
    expect((await api('PUT', mrPath(made.id), { token: reporter.token, body: { source_branch: 'x' } })).status).toBe(
      403,
    );
    const missing = await api('PUT', mrPath(2147483000), { token: developer.token, body: { source_branch: 'x' } });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }]);
    // A path id that is no number is what `merge_requests.find` could not find either.
    for (const [method, route] of [
      ['PUT', mrPath('abc' as never)],
      ['PUT', mrPath('abc' as never, '/merge')],
      ['GET', mrPath('abc' as never)],
    ] as const) {
      expect(await api(method, route, { token: developer.token, body: {} })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
    }
    const stranger = await createUser();
    const hidden = await api('PUT', mrPath(made.id), { token: stranger.token, body: { source_branch: 'x' } });
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('checks a new target branch as GitLab did: never the source branch (422), never onto another open merge request (409)', async () => {
    await branch('feature-retarget', { 'retarget.txt': 'r\n' });
    await branch('release-retarget', { 'release.txt': 'r\n' });
    expect(
      (await create({ source_branch: 'feature-retarget', target_branch: 'master', title: 'Into master' })).status,
    ).toBe(201);
    const made = (
      await create({ source_branch: 'feature-retarget', target_branch: 'release-retarget', title: 'Into release' })
    ).body;
    const same = await api('PUT', mrPath(made.id), {
      token: developer.token,
      body: { target_branch: 'feature-retarget' },
    });
    expect([same.status, same.body]).toEqual([
      422,
      { message: 'You can not use same project/branch for source and target' },
    ]);
    const taken = await api('PUT', mrPath(made.id), { token: developer.token, body: { target_branch: 'master' } });
    expect([taken.status, taken.body]).toEqual([
      409,
      { message: 'Cannot Create: This merge request already exists: ["Into master"]' },
    ]);
    expect((await api('GET', mrPath(made.id), { token: developer.token })).body.target_branch).toBe('release-retarget');
    // Retargeting onto the branch it already has changes nothing and is no conflict.
    expect(
      (await api('PUT', mrPath(made.id), { token: developer.token, body: { target_branch: 'release-retarget' } }))
        .status,
    ).toBe(200);
  });
});
