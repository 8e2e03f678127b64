import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  stack,
  type TestProject,
  type TestUser,
} from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';

const BINARY = randomBytes(200 * 1024);

/** GET a byte route: status, headers and the raw body. */
async function download(path: string, token: string) {
  const response = await request(`${stack.restUrl}${path}`, { headers: { 'PRIVATE-TOKEN': token } });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, body };
}

let owner: TestUser;
let project: TestProject;
let first: string;
let second: string;
let base: string;

beforeAll(async () => {
  owner = await createUser();
  project = await createProject(owner.token, { name: 'Repo Under Test' });
  const wc = await workingCopy(
    {
      'README.md': '# readme\n',
      'docs/deep/nested/ünï cödé.md': 'grüße\n',
      'bin/blob.bin': BINARY,
      'old.txt': 'old\n',
    },
    'master',
    'first commit',
  );
  first = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
  const url = remoteUrl(project.path_with_namespace, owner.username, owner.token);
  ok(await git(wc, 'push', url, 'master'));
  await git(wc, 'checkout', '-q', '-b', 'feature');
  await git(wc, 'rm', '-q', 'old.txt');
  second = await commitFiles(
    wc,
    { 'README.md': '# readme\nmore\n', 'new.txt': 'new\n' },
    'feature work\n\nwith a body',
  );
  ok(await git(wc, 'push', url, 'feature'));
  base = first;
});

const repo = (path: string) => `/projects/${project.id}/repository${path}`;

describe('branches', () => {
  it('lists branches with their commits, sorted by name', async () => {
    // The first push protects the default branch (through the push event, so: eventually).
    await eventually(async () => {
      const branches = await api('GET', repo('/branches'), { token: owner.token });
      expect(branches.body.map((b: { name: string; protected: boolean }) => [b.name, b.protected])).toEqual([
        ['feature', false],
        ['master', true],
      ]);
    });
    const res = await api('GET', repo('/branches'), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      name: 'feature',
      protected: false,
      commit: {
        id: second,
        message: 'feature work\n\nwith a body\n',
        parents: [{ id: first }],
        tree: expect.stringMatching(/^[0-9a-f]{40}$/),
        author: { name: 'Test Pusher', email: 'pusher@example.com' },
        committer: { name: 'Test Pusher', email: 'pusher@example.com' },
        authored_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
        committed_date: expect.any(String),
      },
    });
  });

  it('shows, protects and unprotects one branch (idempotently), by id or path', async () => {
    const encoded = encodeURIComponent(project.path_with_namespace);
    expect(
      (await api('GET', `/projects/${encoded}/repository/branches/feature`, { token: owner.token })).body.commit.id,
    ).toBe(second);
    for (let i = 0; i < 2; i++) {
      const res = await api('PUT', repo('/branches/feature/protect'), { token: owner.token });
      expect([res.status, res.body.protected]).toEqual([200, true]);
    }
    expect((await api('GET', repo('/branches/feature'), { token: owner.token })).body.protected).toBe(true);
    for (let i = 0; i < 2; i++) {
      const res = await api('PUT', repo('/branches/feature/unprotect'), { token: owner.token });
      expect([res.status, res.body.protected]).toEqual([200, false]);
    }
  });

  it('answers 404 for a branch that does not exist, and for hostile names', async () => {
    expect(await api('GET', repo('/branches/nope'), { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Branch Not Found' },
    });
    expect((await api('PUT', repo('/branches/nope/protect'), { token: owner.token })).status).toBe(404);
    expect(await api('PUT', repo('/branches/nope/unprotect'), { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Branch does not exist Not Found' },
    });
    for (const name of ['--upload-pack=x', '-o', '..%2F..']) {
      expect((await api('GET', repo(`/branches/${name}`), { token: owner.token })).status).toBe(404);
    }
  });

  it('creates and deletes branches as GitLab 7.14 did, names with slashes unencoded too, each a push in the events feed', async () => {
    const developer = await createUser();
    await addMember(project.id, developer.id, 30);
    const made = await api('POST', repo('/branches'), {
      token: developer.token,
      body: { branch_name: 'topic/slashed', ref: first },
    });
    expect([made.status, made.body.name, made.body.commit.id, made.body.protected]).toEqual([
      201,
      'topic/slashed',
      first,
      false,
    ]);
    // GitLab matched any characters in the name: the slash need not be encoded.
    expect((await api('GET', repo('/branches/topic/slashed'), { token: developer.token })).body.commit.id).toBe(first);
    expect((await api('PUT', repo('/branches/topic/slashed/protect'), { token: owner.token })).body).toMatchObject({
      name: 'topic/slashed',
      protected: true,
    });
    expect(await api('DELETE', repo('/branches/topic/slashed'), { token: developer.token })).toMatchObject({
      status: 405,
      body: { message: 'Protected branch cant be removed' },
    });
    expect((await api('PUT', repo('/branches/topic/slashed/unprotect'), { token: owner.token })).body.protected).toBe(
      false,
    );
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ branch_name: 'topic/slashed', ref: 'master' }, 'Branch already exists'],
      [{ branch_name: 'bad name', ref: 'master' }, 'Branch name invalid'],
      [{ branch_name: 'fine', ref: 'nowhere' }, 'Invalid reference name'],
      [{ ref: 'master' }, 'Branch name invalid'],
    ];
    for (const [body, message] of refusals)
      expect(await api('POST', repo('/branches'), { token: developer.token, body })).toMatchObject({
        status: 400,
        body: { message },
      });
    expect(await api('DELETE', repo('/branches/master'), { token: owner.token })).toMatchObject({
      status: 405,
      body: { message: 'Cannot remove HEAD branch' },
    });
    expect(await api('DELETE', repo('/branches/nope'), { token: developer.token })).toMatchObject({
      status: 404,
      body: { message: 'No such branch' },
    });
    expect(await api('DELETE', repo('/branches/topic/slashed'), { token: developer.token })).toMatchObject({
      status: 200,
      body: { branch_name: 'topic/slashed' },
    });
    expect((await api('GET', repo('/branches/topic/slashed'), { token: developer.token })).status).toBe(404);
    await eventually(async () => {
      const events = await api('GET', `/projects/${project.id}/events`, { token: owner.token });
      const mine = events.body.filter(
        (e: { author_id: number; data: { ref: string } | null }) =>
          e.author_id === developer.id && e.data?.ref === 'refs/heads/topic/slashed',
      );
      expect(mine.map((e: { action_name: string }) => e.action_name).sort()).toEqual(['deleted', 'pushed new']);
    });
  });

  it('lets only Masters protect branches', async () => {
    const developer = await createUser();
    await addMember(project.id, developer.id, 30);
    expect((await api('PUT', repo('/branches/master/protect'), { token: developer.token })).status).toBe(403);
  });
});

describe('tags', () => {
  it('creates lightweight and annotated tags (200) and lists them by name in reverse', async () => {
    const light = await api('POST', repo('/tags'), { token: owner.token, body: { tag_name: 'v1.0.0', ref: 'master' } });
    expect(light.status).toBe(200);
    expect(light.body).toMatchObject({
      name: 'v1.0.0',
      message: null,
      commit: { id: first, parents_ids: [], author_name: 'Test Pusher' },
    });
    const empty = await api('POST', repo('/tags'), {
      token: owner.token,
      body: { tag_name: 'v1.1.0', ref: first, message: '' },
    });
    expect(empty.body.message).toBeNull();
    const annotated = await api('POST', repo('/tags'), {
      token: owner.token,
      body: { tag_name: 'v2.0.0', ref: 'feature', message: 'Release two' },
    });
    expect(annotated.body).toMatchObject({ name: 'v2.0.0', message: 'Release two', commit: { id: second } });
    const list = await api('GET', repo('/tags'), { token: owner.token });
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(['v2.0.0', 'v1.1.0', 'v1.0.0']);
    for (const field of [
      'id',
      'message',
      'parents_ids',
      'authored_date',
      'author_name',
      'author_email',
      'committer_name',
      'committer_email',
      'committed_date',
    ]) {
      expect(list.body[0].commit).toHaveProperty(field);
    }
  });

  it.each([
    ['an existing tag', { tag_name: 'dup', ref: 'master' }, 'Tag already exists'],
    ['a bad name', { tag_name: 'bad name', ref: 'master' }, 'Tag name invalid'],
    ['a ref naming nothing', { tag_name: 'x1', ref: 'no-such-ref' }, 'Invalid reference name'],
    ['a hostile ref', { tag_name: 'x2', ref: '--upload-pack=x' }, expect.any(String)],
  ])('answers 405 with the reason for %s', async (_name, body, message) => {
    await api('POST', repo('/tags'), { token: owner.token, body: { tag_name: 'dup', ref: 'master' } });
    const res = await api('POST', repo('/tags'), { token: owner.token, body });
    expect([res.status, res.body]).toEqual([405, { message }]);
  });

  it('needs tag_name and ref, and Developer rights', async () => {
    expect((await api('POST', repo('/tags'), { token: owner.token, body: { ref: 'master' } })).body).toEqual({
      message: '400 (Bad request) "tag_name" not given',
    });
    const reporter = await createUser();
    await addMember(project.id, reporter.id, 20);
    expect(
      (await api('POST', repo('/tags'), { token: reporter.token, body: { tag_name: 'r', ref: 'master' } })).status,
    ).toBe(403);
  });
});

describe('tree', () => {
  it('lists the root of the default branch, nested folders and other refs', async () => {
    const root = await api('GET', repo('/tree'), { token: owner.token });
    // GitLab's order: folders first, then files (Tree#sorted_entries).
    expect(root.body.map((e: { name: string; type: string }) => `${e.type}:${e.name}`)).toEqual([
      'tree:bin',
      'tree:docs',
      'blob:README.md',
      'blob:old.txt',
    ]);
    expect(root.body[2]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      name: 'README.md',
      type: 'blob',
      mode: '100644',
    });
    const nested = await api('GET', repo('/tree'), { token: owner.token, query: { path: 'docs/deep/nested' } });
    expect(nested.body.map((e: { name: string }) => e.name)).toEqual(['ünï cödé.md']);
    const feature = await api('GET', repo('/tree'), { token: owner.token, query: { ref_name: 'feature' } });
    expect(feature.body.map((e: { name: string }) => e.name)).toContain('new.txt');
  });

  it('lists folders, then files, then submodules, each group by name, as GitLab did', async () => {
    const sorted = await createProject(owner.token);
    const wc = await workingCopy({
      'zeta.txt': 'z\n',
      'Alpha.md': 'a\n',
      'b.txt': 'b\n',
      'src/x.txt': 'x\n',
      'Docs/y.txt': 'y\n',
      'lib/z.txt': 'z\n',
    });
    // Two submodules (gitlinks) named so that name order alone would mix them with the rest.
    for (const name of ['vendor-b', 'a-vendor'])
      ok(await git(wc, 'update-index', '--add', '--cacheinfo', `160000,${first},${name}`));
    ok(await git(wc, 'commit', '-q', '-m', 'submodules'));
    ok(await git(wc, 'push', remoteUrl(sorted.path_with_namespace, owner.username, owner.token), 'master'));
    const res = await api('GET', `/projects/${sorted.id}/repository/tree`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { name: string; type: string }) => `${e.type}:${e.name}`)).toEqual([
      'tree:Docs',
      'tree:lib',
      'tree:src',
      'blob:Alpha.md',
      'blob:b.txt',
      'blob:zeta.txt',
      'commit:a-vendor',
      'commit:vendor-b',
    ]);
    expect(res.body[6]).toEqual({ id: first, name: 'a-vendor', type: 'commit', mode: '160000' });
  });

  it.each([
    // A path naming no folder lists nothing (as gitlab_git did); a ref naming nothing is 404.
    [{ path: 'nope' }, 200],
    [{ ref_name: 'nope' }, 404],
    [{ path: '../..' }, 400],
    [{ ref_name: '--upload-pack=x' }, 400],
    [{ ref_name: '-o' }, 400],
  ])('answers %j with %i', async (query, status) => {
    expect((await api('GET', repo('/tree'), { token: owner.token, query })).status).toBe(status);
  });

  it('answers 404 for an empty repository', async () => {
    const empty = await createProject(owner.token);
    expect((await api('GET', `/projects/${empty.id}/repository/tree`, { token: owner.token })).status).toBe(404);
    expect((await api('GET', `/projects/${empty.id}/repository/branches`, { token: owner.token })).body).toEqual([]);
    expect((await api('GET', `/projects/${empty.id}/repository/tags`, { token: owner.token })).body).toEqual([]);
    expect((await api('GET', `/projects/${empty.id}/repository/contributors`, { token: owner.token })).body).toEqual(
      [],
    );
  });
});

describe('blobs and raw blobs', () => {
  it('serves a text file at a branch or commit as text/plain, and binary bytes as octet-stream', async () => {
    const text = await download(
      repo(`/blobs/master?filepath=${encodeURIComponent('docs/deep/nested/ünï cödé.md')}`),
      owner.token,
    );
    expect([text.status, text.headers['content-type'], text.body.toString('utf8')]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'grüße\n',
    ]);
    const bin = await download(repo(`/blobs/${first}?filepath=bin/blob.bin`), owner.token);
    expect([bin.status, bin.headers['content-type']]).toEqual([200, 'application/octet-stream']);
    expect(bin.body.equals(BINARY)).toBe(true);
    const viaCommits = await download(repo(`/commits/feature/blob?filepath=README.md`), owner.token);
    expect(viaCommits.body.toString()).toBe('# readme\nmore\n');
  });

  it('requires filepath and answers 404 for missing files and refs, 400 for hostile ones', async () => {
    const missing = await api('GET', repo('/blobs/master'), { token: owner.token });
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "filepath" not given' }]);
    expect(
      (await api('GET', repo('/blobs/master'), { token: owner.token, query: { filepath: 'nope.txt' } })).status,
    ).toBe(404);
    expect(
      (await api('GET', repo('/blobs/nope'), { token: owner.token, query: { filepath: 'README.md' } })).status,
    ).toBe(404);
    expect(
      (await api('GET', repo('/blobs/master'), { token: owner.token, query: { filepath: '../../etc/passwd' } })).status,
    ).toBe(400);
    expect(
      (await api('GET', repo('/blobs/--output=x'), { token: owner.token, query: { filepath: 'README.md' } })).status,
    ).toBe(400);
    expect((await api('GET', `${repo('/blobs/master')}?filepath=README.md%00x`, { token: owner.token })).status).toBe(
      400,
    );
  });

  it('serves a blob by its sha', async () => {
    const tree = await api('GET', repo('/tree'), { token: owner.token });
    const readme = tree.body.find((e: { name: string }) => e.name === 'README.md');
    const raw = await download(repo(`/raw_blobs/${readme.id}`), owner.token);
    expect([raw.status, raw.body.toString()]).toEqual([200, '# readme\n']);
    expect((await api('GET', repo(`/raw_blobs/${'0'.repeat(40)}`), { token: owner.token })).status).toBe(404);
    expect((await api('GET', repo('/raw_blobs/HEAD'), { token: owner.token })).status).toBe(400);
  });
});

describe('archives', () => {
  it.each([
    ['/archive', 'application/x-gzip', 'tar.gz', (b: Buffer) => b[0] === 0x1f && b[1] === 0x8b],
    ['/archive.tar.gz', 'application/x-gzip', 'tar.gz', (b: Buffer) => b[0] === 0x1f],
    ['/archive.zip', 'application/zip', 'zip', (b: Buffer) => b.subarray(0, 2).toString() === 'PK'],
    ['/archive.tar.bz2', 'application/x-bzip2', 'tar.bz2', (b: Buffer) => b.subarray(0, 3).toString() === 'BZh'],
    ['/archive.tar', 'application/x-tar', 'tar', (b: Buffer) => b.subarray(257, 262).toString() === 'ustar'],
  ])('GET %s', async (path, type, extension, check) => {
    const res = await download(repo(path), owner.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename=".+\\.${extension.replace('.', '\\.')}"$`),
    );
    expect(check(res.body)).toBe(true);
  });

  it('archives another sha, and 404s one that does not exist', async () => {
    const res = await download(repo(`/archive.tar?sha=${second}`), owner.token);
    expect(res.body.toString('latin1')).toContain('new.txt');
    expect((await api('GET', repo('/archive'), { token: owner.token, query: { sha: 'nope' } })).status).toBe(404);
  });
});

describe('compare', () => {
  it('lists the commits and the diffs from the merge base', async () => {
    const res = await api('GET', repo('/compare'), { token: owner.token, query: { from: 'master', to: 'feature' } });
    expect(res.status).toBe(200);
    expect(res.body.compare_same_ref).toBe(false);
    expect(res.body.compare_timeout).toBe(false);
    // GitLab 7.14's RepoCommit: an 8-character short id (gitlab_git's id[0..7]) and the message too.
    expect(res.body.commit).toEqual({
      id: second,
      short_id: second.slice(0, 8),
      title: 'feature work',
      author_name: 'Test Pusher',
      author_email: 'pusher@example.com',
      created_at: expect.any(String),
      message: 'feature work\n\nwith a body\n',
    });
    expect(res.body.commits.map((c: { id: string }) => c.id)).toEqual([second]);
    const byPath = Object.fromEntries(res.body.diffs.map((d: { new_path: string }) => [d.new_path, d]));
    expect(byPath['new.txt']).toMatchObject({
      old_path: 'new.txt',
      a_mode: null,
      b_mode: '100644',
      new_file: true,
      renamed_file: false,
      deleted_file: false,
    });
    expect(byPath['old.txt']).toMatchObject({ deleted_file: true, b_mode: null });
    expect(byPath['README.md'].diff).toContain('+more');
    expect(base).toBe(first);
  });

  it('says when both refs are the same, and 404s refs that do not exist', async () => {
    expect(
      (await api('GET', repo('/compare'), { token: owner.token, query: { from: 'master', to: first } })).body,
    ).toMatchObject({ compare_same_ref: true, commits: [], diffs: [] });
    // GitLab 7.14 (gitlab_git's Compare) answered a ref naming nothing with an empty compare, not a 404.
    expect(
      (await api('GET', repo('/compare'), { token: owner.token, query: { from: 'master', to: 'nope' } })).body,
    ).toEqual({
      commit: null,
      commits: [],
      diffs: [],
      compare_timeout: false,
      compare_same_ref: false,
    });
    expect((await api('GET', repo('/compare'), { token: owner.token, query: { from: 'master' } })).body).toEqual({
      message: '400 (Bad request) "to" not given',
    });
    expect(
      (await api('GET', repo('/compare'), { token: owner.token, query: { from: '--output=/tmp/x', to: 'master' } }))
        .status,
    ).toBe(400);
  });
});

describe('what is not there', () => {
  it("lists nothing for a tree path that names no folder (gitlab_git's Tree.where), by path or through a file", async () => {
    for (const path of ['no/such/dir', 'README.md']) {
      expect(await api('GET', repo('/tree'), { token: owner.token, query: { path } })).toMatchObject({
        status: 200,
        body: [],
      });
    }
  });

  // GitLab's wording for each route; the worker says only the kind, the API side names the thing.
  it.each([
    ['tree at an unknown ref', '/tree?ref_name=nope', '404 Tree Not Found'],
    ['blob at an unknown path', '/blobs/master?filepath=nope.txt', '404 File Not Found'],
    ['blob at an unknown ref', '/blobs/nope?filepath=README.md', '404 Commit Not Found'],
    ['raw blob of an unknown sha', `/raw_blobs/${'0'.repeat(40)}`, '404 Blob Not Found'],
    ['archive of an unknown sha', '/archive?sha=nope', '404 File Not Found'],
    ['an unknown branch', '/branches/nope', '404 Branch Not Found'],
  ])('%s: %s answers %s', async (_what, path, message) => {
    const res = await api('GET', repo(path), { token: owner.token });
    expect([res.status, res.body]).toEqual([404, { message }]);
  });
});

describe('contributors and access', () => {
  it('lists contributors of the default branch', async () => {
    const res = await api('GET', repo('/contributors'), { token: owner.token });
    // Three one-line text files; the binary file adds no lines.
    expect(res.body).toEqual([
      { name: 'Test Pusher', email: 'pusher@example.com', commits: 1, additions: 3, deletions: 0 },
    ]);
  });

  it('keeps code from guests and strangers of private projects', async () => {
    const [guest, stranger] = [await createUser(), await createUser()];
    await addMember(project.id, guest.id, 10);
    expect((await api('GET', repo('/tree'), { token: guest.token })).status).toBe(403);
    expect((await download(repo('/archive'), guest.token)).status).toBe(403);
    expect((await api('GET', repo('/branches'), { token: stranger.token })).status).toBe(404);
    expect((await download(repo('/raw_blobs/' + '0'.repeat(40)), stranger.token)).status).toBe(404);
  });
});
