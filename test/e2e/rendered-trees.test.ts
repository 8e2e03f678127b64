import { addMember, api, createProject, createUser, type TestUser } from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';

/**
 * The facade keeps what it rendered of a folder under its tree object's id, and asks only for the
 * folder's id when it holds that rendering (routes/rendered-trees.ts). These tests render a folder
 * first, then move the ref, remove the reader and ask for folders that are not there: every answer
 * must be the one the repository gives now.
 */
let owner: TestUser;
let reader: TestUser;
let project: { id: number; path_with_namespace: string };
let wc: string;

const tree = (token: string, query: Record<string, string>) =>
  api('GET', `/projects/${project.id}/repository/tree`, { token, query });
const names = (body: Array<{ name: string }>) => body.map((entry) => entry.name);
const push = async () =>
  ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.password), 'master'));

beforeAll(async () => {
  [owner, reader] = await Promise.all([createUser(), createUser()]);
  project = await createProject(owner.token);
  await addMember(project.id, reader.id, 20);
  wc = await workingCopy({ 'a.txt': 'a\n', 'src/one.txt': '1\n' });
  await push();
});

it('answers a folder rendered before exactly as the first time, at a branch and at a commit', async () => {
  const head = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
  for (const ref of ['master', head]) {
    const first = await tree(owner.token, { ref_name: ref });
    const again = await tree(reader.token, { ref_name: ref });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.text).toBe(first.text);
    expect(names(first.body)).toEqual(['src', 'a.txt']);
    expect(first.body[0]).toEqual({
      id: (await git(wc, 'rev-parse', `${head}:src`)).stdout.trim(),
      name: 'src',
      type: 'tree',
      mode: '040000',
    });
  }
});

it('follows the branch to its new folder after a push, and keeps the old commit answering the old one', async () => {
  const before = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
  expect(names((await tree(owner.token, { ref_name: 'master', path: 'src' })).body)).toEqual(['one.txt']);
  await commitFiles(wc, { 'src/two.txt': '2\n' }, 'two');
  await push();
  expect(names((await tree(owner.token, { ref_name: 'master', path: 'src' })).body)).toEqual(['one.txt', 'two.txt']);
  expect(names((await tree(owner.token, { ref_name: before, path: 'src' })).body)).toEqual(['one.txt']);
});

it('lists nothing for a path that names no folder, and refuses a ref that names no commit', async () => {
  for (const path of ['nope', 'a.txt']) {
    const res = await tree(owner.token, { ref_name: 'master', path });
    expect([res.status, res.body]).toEqual([200, []]);
  }
  const missing = await tree(owner.token, { ref_name: 'no-such-branch' });
  expect([missing.status, missing.body]).toEqual([404, { message: '404 Tree Not Found' }]);
});

it('refuses a commit the repository lacks, and lists it once a push brings it', async () => {
  const next = await commitFiles(wc, { 'later.txt': 'later\n' }, 'later');
  const before = await tree(owner.token, { ref_name: next });
  expect([before.status, before.body]).toEqual([404, { message: '404 Tree Not Found' }]);
  await push();
  const after = await tree(owner.token, { ref_name: next });
  expect(after.status).toBe(200);
  expect(names(after.body)).toContain('later.txt');
});

it('refuses a removed member on the next request, a rendering of the folder notwithstanding', async () => {
  const leaving = await createUser();
  await addMember(project.id, leaving.id, 20);
  expect((await tree(leaving.token, { ref_name: 'master' })).status).toBe(200);
  const removed = await api('DELETE', `/projects/${project.id}/members/${leaving.id}`, { token: owner.token });
  expect(removed.status).toBe(200);
  const refused = await tree(leaving.token, { ref_name: 'master' });
  expect([refused.status, refused.body]).toEqual([404, { message: '404 Project Not Found' }]);
});
