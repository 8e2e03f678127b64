import {
  addMember,
  api,
  createProject,
  createUser,
  internalGraphql,
  type TestProject,
  type TestUser,
} from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';

/**
 * Repository reads that name the project by id (and their refs, where they take one) go to the
 * repository subgraph alone (`repositoryReads`); by path, or a tree without a ref, they go through
 * the project first. Both ways
 * must answer alike: the same bodies, and the same refusals in the same order (404 for a project
 * the caller may not see, 403 for code they may not read, then the route's own 404).
 */
let owner: TestUser;
let stranger: TestUser;
let guest: TestUser;
let reporter: TestUser;
let project: TestProject;
let first: string;
let second: string;

beforeAll(async () => {
  [owner, stranger, guest, reporter] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
  project = await createProject(owner.token);
  const wc = await workingCopy({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n' }, 'master', 'first');
  first = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
  second = await commitFiles(wc, { 'a.txt': 'a, changed\n' }, 'second');
  ok(await git(wc, 'tag', '-a', '-m', 'one', 'v1', first));
  ok(
    await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.password), 'master', 'v1'),
  );
  await addMember(project.id, guest.id, 10);
  await addMember(project.id, reporter.id, 20);
});

const reads = () => [
  '/repository/branches',
  '/repository/branches/master',
  '/repository/tags',
  '/repository/contributors',
  `/repository/tree?ref_name=${second}`,
  '/repository/tree?ref_name=master&path=dir',
  `/repository/compare?from=${first}&to=master`,
  `/repository/commits/${second}`,
  '/repository/commits?ref_name=master&per_page=1&page=2',
  '/repository/commits/master/diff',
];

/** The route by numeric id (one fetch) and by URL-encoded path (the project first). */
const both = (path: string) => [
  `/projects/${project.id}${path}`,
  `/projects/${encodeURIComponent(project.path_with_namespace)}${path}`,
];

describe('repository reads by id and their refs', () => {
  it('answer readers as the same reads by path do', async () => {
    for (const path of reads()) {
      const [byId, byPath] = await Promise.all(both(path).map((url) => api('GET', url, { token: reporter.token })));
      expect([path, byId.status]).toEqual([path, 200]);
      expect(byId.body).toEqual(byPath.body);
    }
    const tree = await api('GET', `/projects/${project.id}/repository/tree?ref_name=${second}`, {
      token: reporter.token,
    });
    expect(tree.body.map((entry: { name: string }) => entry.name)).toEqual(['dir', 'a.txt']);
    const commits = await api('GET', `/projects/${project.id}/repository/commits?ref_name=master&per_page=1&page=2`, {
      token: reporter.token,
    });
    expect([commits.body.map((c: { id: string }) => c.id), commits.headers.get('x-total')]).toEqual([[first], '2']);
    const tags = await api('GET', `/projects/${project.id}/repository/tags`, { token: reporter.token });
    expect(
      tags.body.map((t: { name: string; message: string; commit: { id: string } }) => [t.name, t.message, t.commit.id]),
    ).toEqual([['v1', 'one', first]]);
    const branch = await api('GET', `/projects/${project.id}/repository/branches/master`, { token: reporter.token });
    expect([branch.body.name, branch.body.commit.id]).toEqual(['master', second]);
    const contributors = await api('GET', `/projects/${project.id}/repository/contributors`, { token: reporter.token });
    expect(contributors.body.map((c: { commits: number }) => c.commits)).toEqual([2]);
    const compare = await api('GET', `/projects/${project.id}/repository/compare?from=${first}&to=master`, {
      token: reporter.token,
    });
    expect(compare.body.commits.map((c: { id: string }) => c.id)).toEqual([second]);
    expect(compare.body.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(['a.txt']);
  });

  it('refuse as before: 404 to strangers and for no such project, 403 to guests, 401 without credentials', async () => {
    for (const path of reads()) {
      for (const url of both(path)) {
        const hidden = await api('GET', url, { token: stranger.token });
        expect([url, hidden.status, hidden.body]).toEqual([url, 404, { message: '404 Project Not Found' }]);
        const forbidden = await api('GET', url, { token: guest.token });
        expect([url, forbidden.status, forbidden.body]).toEqual([url, 403, { message: '403 Forbidden' }]);
        const anonymous = await api('GET', url, { token: null });
        expect([url, anonymous.status]).toEqual([url, 401]);
      }
      const missing = await api('GET', `/projects/999999999${path}`, { token: owner.token });
      expect([path, missing.status, missing.body]).toEqual([path, 404, { message: '404 Project Not Found' }]);
    }
  });

  it('say what is missing after the authorization, and refuse bad refs with 400, both ways', async () => {
    const unknown = 'f'.repeat(40);
    for (const url of both('/repository/branches/no-such-branch'))
      expect((await api('GET', url, { token: reporter.token })).body).toEqual({ message: '404 Branch Not Found' });
    for (const url of both(`/repository/commits/${unknown}`))
      expect((await api('GET', url, { token: reporter.token })).body).toEqual({ message: '404 Commit Not Found' });
    for (const url of both(`/repository/commits/${unknown}/diff`))
      expect((await api('GET', url, { token: reporter.token })).body).toEqual({ message: '404 Commit Not Found' });
    const bad = await Promise.all(
      both('/repository/tree?ref_name=--output=x').map((url) => api('GET', url, { token: reporter.token })),
    );
    expect(bad[0].status).toBe(bad[1].status);
    expect(bad[0].body).toEqual(bad[1].body);
    expect(bad[0].status).toBeGreaterThanOrEqual(400);
    expect(bad[0].status).toBeLessThan(500);
    // A stranger learns nothing about refs: the project's 404 comes first.
    const hidden = await api('GET', `/projects/${project.id}/repository/commits/${unknown}`, { token: stranger.token });
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
  });

  it('on the internal contract, answer an id that names no project as NOT_FOUND, never an internal error', async () => {
    for (const projectId of [0, -1, 2147483647]) {
      const res = await internalGraphql(
        'query ($projectId: Int!) { repositoryReads(projectId: $projectId) { branches { name } } }',
        { projectId },
        { 'PRIVATE-TOKEN': owner.token },
      );
      expect([projectId, res.body.errors?.[0]?.extensions?.code]).toEqual([projectId, 'NOT_FOUND']);
    }
    const res = await internalGraphql(
      'query ($projectId: Int!) { repositoryReads(projectId: $projectId) { tags { name } } }',
      { projectId: project.id },
      { 'PRIVATE-TOKEN': reporter.token },
    );
    expect(res.body.data?.repositoryReads.tags).toEqual([{ name: 'v1' }]);
  });
});
