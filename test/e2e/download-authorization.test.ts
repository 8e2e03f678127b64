import { addMember, api, createProject, createUser, type TestProject, type TestUser } from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';

/**
 * Downloads start their git worker call beside the authorization (the facade knows the project's
 * shard): the bytes of a private file must still never reach a caller the authorization refuses,
 * and the refusals must read as they did when the call came after it (404 before 400).
 */
const SECRET = 'the private file body, not for strangers\n';
let owner: TestUser;
let stranger: TestUser;
let guest: TestUser;
let hidden: TestProject;
let blobSha: string;

beforeAll(async () => {
  [owner, stranger, guest] = await Promise.all([createUser(), createUser(), createUser()]);
  hidden = await createProject(owner.token);
  const wc = await workingCopy({ 'secret.txt': SECRET });
  ok(await git(wc, 'push', '-q', remoteUrl(hidden.path_with_namespace, owner.username, owner.password), 'master'));
  await addMember(hidden.id, guest.id, 10);
  const tree = await api('GET', `/projects/${hidden.id}/repository/tree`, { token: owner.token });
  blobSha = tree.body.find((entry: { name: string }) => entry.name === 'secret.txt').id;
});

const downloads = () => [
  `/repository/raw_blobs/${blobSha}`,
  '/repository/blobs/master?filepath=secret.txt',
  '/repository/commits/master/blob?filepath=secret.txt',
  '/repository/files?file_path=secret.txt&ref=master',
];

describe('a download started beside its authorization', () => {
  it('gives the owner the bytes, over and over (the early call is the one relayed)', async () => {
    for (let round = 0; round < 3; round++) {
      for (const path of downloads()) {
        const res = await api('GET', `/projects/${hidden.id}${path}`, { token: owner.token });
        expect(res.status).toBe(200);
        const content = path.startsWith('/repository/files')
          ? Buffer.from(res.body.content, 'base64').toString()
          : res.text;
        expect(content).toBe(SECRET);
      }
    }
  });

  it('answers a stranger exactly as for a missing project, with none of the bytes', async () => {
    for (const path of downloads()) {
      const [byId, missing] = await Promise.all([
        api('GET', `/projects/${hidden.id}${path}`, { token: stranger.token }),
        api('GET', `/projects/2147483000${path}`, { token: stranger.token }),
      ]);
      expect([byId.status, byId.text]).toEqual([missing.status, missing.text]);
      expect(byId.status).toBe(404);
      expect(byId.text).not.toContain('private file body');
    }
  });

  it('answers a guest, who sees the project but not its code, 403 with none of the bytes', async () => {
    for (const path of downloads()) {
      const res = await api('GET', `/projects/${hidden.id}${path}`, { token: guest.token });
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }]);
    }
  });

  it('still puts the 404 of a hidden project before the 400 of a missing parameter', async () => {
    for (const path of ['/repository/blobs/master', '/repository/files?ref=master']) {
      const stranger404 = await api('GET', `/projects/${hidden.id}${path}`, { token: stranger.token });
      expect([stranger404.status, stranger404.body]).toEqual([404, { message: '404 Project Not Found' }]);
      const owner400 = await api('GET', `/projects/${hidden.id}${path}`, { token: owner.token });
      expect(owner400.status).toBe(400);
    }
  });

  it('answers a missing blob of a readable project 404 Blob Not Found', async () => {
    const res = await api('GET', `/projects/${hidden.id}/repository/raw_blobs/${'0'.repeat(40)}`, {
      token: owner.token,
    });
    expect([res.status, res.body]).toEqual([404, { message: '404 Blob Not Found' }]);
  });
});
