import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
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

let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let project: TestProject;
const shas: string[] = [];

beforeAll(async () => {
  owner = await createUser();
  developer = await createUser();
  reporter = await createUser();
  project = await createProject(owner.token, { name: 'Commits And Files' });
  await addMember(project.id, developer.id, 30);
  await addMember(project.id, reporter.id, 20);
  const wc = await workingCopy(
    { 'README.md': '# readme\n', 'src/app.js': 'console.log(1)\n' },
    'master',
    'first commit',
  );
  shas.push((await git(wc, 'rev-parse', 'HEAD')).stdout.trim());
  for (let n = 2; n <= 4; n++)
    shas.push(await commitFiles(wc, { 'src/app.js': `console.log(${n})\n` }, `commit ${n}\n\nbody ${n}`));
  await git(wc, 'checkout', '-q', '-b', 'feature');
  await commitFiles(wc, { 'feature.txt': 'f\n' }, 'feature only');
  ok(await git(wc, 'push', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master', 'feature'));
  // The first push protects the default branch through its event: wait for it, so what Developers
  // may write to is settled before any test writes.
  await eventually(async () => {
    expect(
      (await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body.protected,
    ).toBe(true);
  }, 15_000);
});

const repo = (path: string) => `/projects/${project.id}/repository${path}`;

describe('commits', () => {
  it('lists a ref history newest first, paginated, in RepoCommit shape', async () => {
    const res = await api('GET', repo('/commits'), { token: reporter.token, query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.map((c: { id: string }) => c.id)).toEqual([shas[3], shas[2]]);
    expectPaginationHeaders(res, 4, 2);
    expect(res.body[0]).toEqual({
      id: shas[3],
      short_id: shas[3].slice(0, 8),
      title: 'commit 4',
      author_name: 'Test Pusher',
      author_email: 'pusher@example.com',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      message: 'commit 4\n\nbody 4\n',
    });
    const page2 = await api('GET', repo('/commits'), { token: reporter.token, query: { per_page: 2, page: 2 } });
    expect(page2.body.map((c: { id: string }) => c.id)).toEqual([shas[1], shas[0]]);
    const feature = await api('GET', repo('/commits'), { token: reporter.token, query: { ref_name: 'feature' } });
    expect(feature.body[0].title).toBe('feature only');
    // A ref naming nothing lists nothing (gitlab_git's log); a hostile one is refused before git.
    expect(
      (await api('GET', repo('/commits'), { token: reporter.token, query: { ref_name: 'no-such-branch' } })).body,
    ).toEqual([]);
    const hostile = await api('GET', repo('/commits'), {
      token: reporter.token,
      query: { ref_name: '--output=/tmp/x' },
    });
    expect(hostile.status).toBe(400);
  });

  it('shows one commit with its parents and dates, and its diff', async () => {
    const one = await api('GET', repo(`/commits/${shas[1]}`), { token: reporter.token });
    expect(one.body).toMatchObject({
      id: shas[1],
      title: 'commit 2',
      parent_ids: [shas[0]],
      committed_date: expect.any(String),
      authored_date: expect.any(String),
    });
    const byBranch = await api('GET', repo('/commits/feature'), { token: reporter.token });
    expect(byBranch.body.title).toBe('feature only');
    const diff = await api('GET', repo(`/commits/${shas[1]}/diff`), { token: reporter.token });
    expect(diff.body).toEqual([
      {
        old_path: 'src/app.js',
        new_path: 'src/app.js',
        a_mode: '100644',
        b_mode: '100644',
        diff: expect.stringContaining('-console.log(1)\n+console.log(2)'),
        new_file: false,
        renamed_file: false,
        deleted_file: false,
      },
    ]);
    const root = await api('GET', repo(`/commits/${shas[0]}/diff`), { token: reporter.token });
    expect(root.body.map((d: { new_path: string; new_file: boolean }) => [d.new_path, d.new_file])).toEqual([
      ['README.md', true],
      ['src/app.js', true],
    ]);
    for (const path of [`/commits/${'f'.repeat(40)}`, `/commits/${'f'.repeat(40)}/diff`, '/commits/nope']) {
      expect(await api('GET', repo(path), { token: reporter.token })).toMatchObject({
        status: 404,
        body: { message: '404 Commit Not Found' },
      });
    }
  });

  it('hides commits of a private project from strangers exactly as a missing project', async () => {
    const stranger = await createUser();
    const hidden = await api('GET', repo('/commits'), { token: stranger.token });
    const missing = await api('GET', '/projects/999999999/repository/commits', { token: stranger.token });
    expect([hidden.status, hidden.body]).toEqual([missing.status, missing.body]);
    expect(hidden.status).toBe(404);
  });
});

describe('commit comments', () => {
  it('takes comments on a commit, on a diff line when path, line and line_type all come, and lists them oldest first', async () => {
    const path = repo(`/commits/${shas[1]}/comments`);
    const plain = await api('POST', path, { token: reporter.token, body: { note: 'Nice change' } });
    expect([plain.status, plain.body]).toEqual([
      201,
      {
        note: 'Nice change',
        path: null,
        line: null,
        line_type: null,
        author: expect.objectContaining({ id: reporter.id, username: reporter.username }),
      },
    ]);
    const onLine = await api('POST', path, {
      token: developer.token,
      body: { note: 'This line', path: 'src/app.js', line: 1, line_type: 'new' },
    });
    expect(onLine.body).toMatchObject({ note: 'This line', path: 'src/app.js', line: 1, line_type: 'new' });
    // Only some of the position: a plain comment, as GitLab made it.
    expect(
      (await api('POST', path, { token: developer.token, body: { note: 'Half', path: 'src/app.js' } })).body,
    ).toMatchObject({ path: null, line: null });
    const list = await api('GET', path, { token: reporter.token });
    expect(list.body.map((c: { note: string }) => c.note)).toEqual(['Nice change', 'This line', 'Half']);
    expectPaginationHeaders(list, 3);
    // The same commit by a branch name that points at it: the same comments.
    const tip = await api('GET', repo('/commits/master/comments'), { token: reporter.token });
    expect(tip.body).toEqual([]);
  });

  it('answers a missing commit, a comment without its note and strangers as GitLab did', async () => {
    const missing = repo(`/commits/${'f'.repeat(40)}/comments`);
    expect(await api('GET', missing, { token: reporter.token })).toMatchObject({
      status: 404,
      body: { message: '404 Commit Not Found' },
    });
    expect(await api('POST', missing, { token: reporter.token, body: { note: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Commit Not Found' },
    });
    expect(await api('POST', repo(`/commits/${shas[1]}/comments`), { token: reporter.token, body: {} })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "note" not given' },
    });
    const stranger = await createUser();
    const hidden = await api('GET', repo(`/commits/${shas[1]}/comments`), { token: stranger.token });
    const absent = await api('GET', `/projects/999999999/repository/commits/${shas[1]}/comments`, {
      token: stranger.token,
    });
    expect([hidden.status, hidden.body]).toEqual([absent.status, absent.body]);
  });
});

describe('repository files', () => {
  it('reads a file at a ref in base64 with its blob and commit', async () => {
    const res = await api('GET', repo('/files'), {
      token: reporter.token,
      query: { file_path: 'src/app.js', ref: 'master' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      file_name: 'app.js',
      file_path: 'src/app.js',
      size: 15,
      encoding: 'base64',
      content: Buffer.from('console.log(4)\n').toString('base64'),
      ref: 'master',
      blob_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      commit_id: shas[3],
    });
    expect(
      await api('GET', repo('/files'), { token: reporter.token, query: { file_path: 'nope.txt', ref: 'master' } }),
    ).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });
    expect(
      await api('GET', repo('/files'), { token: reporter.token, query: { file_path: 'README.md', ref: 'nope' } }),
    ).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await api('GET', repo('/files'), { token: reporter.token, query: { ref: 'master' } })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "file_path" not given' },
    });
    for (const file_path of ['../../etc/passwd', 'a\u0000b']) {
      const bad = await api('GET', repo('/files'), { token: reporter.token, query: { file_path, ref: 'master' } });
      expect(bad.status).toBe(400);
    }
  });

  it('streams a large binary file intact through base64', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 1);
    const wc = await workingCopy({ 'big.bin': big }, 'binary', 'a big file');
    ok(await git(wc, 'push', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'binary'));
    const res = await api('GET', repo('/files'), {
      token: reporter.token,
      query: { file_path: 'big.bin', ref: 'binary' },
    });
    expect(res.body.size).toBe(big.length);
    expect(Buffer.from(res.body.content, 'base64').equals(big)).toBe(true);
  });

  it('creates, updates and deletes files as commits that git clones, and records them as pushes', async () => {
    // Developers write to unprotected branches (the default branch is protected by the first push).
    const created = await api('POST', repo('/files'), {
      token: developer.token,
      body: { file_path: 'docs/guide.md', branch_name: 'feature', content: '# guide\n', commit_message: 'Add a guide' },
    });
    expect([created.status, created.body]).toEqual([201, { file_path: 'docs/guide.md', branch_name: 'feature' }]);
    const updated = await api('PUT', repo('/files'), {
      token: developer.token,
      body: {
        file_path: 'docs/guide.md',
        branch_name: 'feature',
        content: Buffer.from('# guide\nv2\n').toString('base64'),
        encoding: 'base64',
        commit_message: 'Edit the guide',
      },
    });
    expect([updated.status, updated.body]).toEqual([200, { file_path: 'docs/guide.md', branch_name: 'feature' }]);
    const deleted = await api('DELETE', repo('/files'), {
      token: developer.token,
      body: { file_path: 'README.md', branch_name: 'feature', commit_message: 'Drop the readme' },
    });
    expect([deleted.status, deleted.body]).toEqual([200, { file_path: 'README.md', branch_name: 'feature' }]);

    const clone = mkdtempSync(join(tmpdir(), 'hub-clone-'));
    ok(
      await git(
        clone,
        'clone',
        '-q',
        '-b',
        'feature',
        remoteUrl(project.path_with_namespace, developer.username, developer.token),
        'c',
      ),
    );
    expect(readFileSync(join(clone, 'c', 'docs', 'guide.md'), 'utf8')).toBe('# guide\nv2\n');
    const log = (await git(join(clone, 'c'), 'log', '-3', '--format=%s|%an|%ae')).stdout.trim().split('\n');
    expect(log).toEqual([
      `Drop the readme|User ${developer.username}|${developer.email}`,
      `Edit the guide|User ${developer.username}|${developer.email}`,
      `Add a guide|User ${developer.username}|${developer.email}`,
    ]);
    expect((await git(join(clone, 'c'), 'ls-files')).stdout).not.toContain('README.md');
    // Each commit is a push in the project's events feed, by the developer.
    await eventually(async () => {
      const events = await api('GET', `/projects/${project.id}/events`, { token: owner.token });
      const pushes = events.body.filter(
        (e: { action_name: string; author_id: number }) =>
          e.action_name === 'pushed to' && e.author_id === developer.id,
      );
      expect(pushes.length).toBeGreaterThanOrEqual(3);
    });
  });

  it('writes a file as large as the facade takes through every hop, and answers a larger body 413', async () => {
    // Each hop (gateway, subgraph, the worker's gRPC side) accepts what the facade lets in: a
    // 6 MiB file was a 502 when a hop behind it stopped at 1 MiB (gateway) or 4 MiB (gRPC).
    const big = randomBytes(6 * 1024 * 1024);
    const written = await api('POST', repo('/files'), {
      token: developer.token,
      body: {
        file_path: 'large.bin',
        branch_name: 'feature',
        content: big.toString('base64'),
        encoding: 'base64',
        commit_message: 'A large file',
      },
    });
    expect([written.status, written.body]).toEqual([201, { file_path: 'large.bin', branch_name: 'feature' }]);
    const read = await api('GET', repo('/files'), {
      token: reporter.token,
      query: { file_path: 'large.bin', ref: 'feature' },
    });
    expect(Buffer.from(read.body.content, 'base64').equals(big)).toBe(true);
    const tooLarge = await api('POST', repo('/files'), {
      token: developer.token,
      body: {
        file_path: 'huge.bin',
        branch_name: 'feature',
        content: 'x'.repeat(11 * 1024 * 1024),
        commit_message: 'Too large',
      },
    });
    expect([tooLarge.status, tooLarge.body]).toEqual([413, { message: '413 Request Entity Too Large' }]);
  });

  it("refuses in GitLab's words, and a refused write changes nothing", async () => {
    const tip = async () => (await api('GET', repo('/commits/master'), { token: owner.token })).body.id;
    const before = await tip();
    const post = (token: string, body: Record<string, unknown>) =>
      api('POST', repo('/files'), {
        token,
        body: { branch_name: 'master', content: 'x', commit_message: 'm', ...body },
      });
    expect(await post(owner.token, { file_path: 'src/app.js' })).toMatchObject({
      status: 400,
      body: { message: 'Your changes could not be committed, because file with such name exists' },
    });
    expect(await post(owner.token, { file_path: 'x.txt', branch_name: 'nowhere' })).toMatchObject({
      status: 400,
      body: { message: 'You can only create files if you are on top of a branch' },
    });
    expect(await post(owner.token, { file_path: 'has space.txt' })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('file name can contain only letters') },
    });
    expect(await post(developer.token, { file_path: 'x.txt', commit_message: undefined })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "commit_message" not given' },
    });
    expect(await post(reporter.token, { file_path: 'x.txt' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await post(owner.token, { file_path: '../escape.txt' })).toMatchObject({ status: 400 });
    const put = await api('PUT', repo('/files'), {
      token: owner.token,
      body: { file_path: 'nope.txt', branch_name: 'master', content: 'x', commit_message: 'm' },
    });
    expect(put).toMatchObject({ status: 400, body: { message: 'You can only edit text files' } });
    // The default branch, protected by the first push: Masters only.
    expect(await post(developer.token, { file_path: 'x.txt' })).toMatchObject({
      status: 400,
      body: { message: 'You are not allowed to create file in this branch' },
    });
    expect(await tip()).toBe(before);
    expect(await post(owner.token, { file_path: 'by-the-owner.txt' })).toMatchObject({ status: 201 });
    expect(await tip()).not.toBe(before);
  });
});
