import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProject, createUser, stack, type TestProject, type TestUser } from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';

// Once the first bytes of a download are out, its status can no longer change: a git failure
// after that must break the answer (the connection cut, the chunked body never terminated), so
// no client keeps a truncated archive as if it were whole.
describe('a download that fails after its first bytes', () => {
  let owner: TestUser;
  let project: TestProject;

  beforeAll(async () => {
    owner = await createUser();
    project = await createProject(owner.token);
    // git archive writes the first file (far past any pipe buffer) before it reads the second.
    const wc = await workingCopy({ 'a-first.bin': randomBytes(1024 * 1024), 'b-second.bin': randomBytes(64 * 1024) });
    ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
    const oid = (await git(wc, 'rev-parse', 'master:b-second.bin')).stdout.trim();
    // A small push is kept as loose objects: the second file's is overwritten with garbage.
    const loose = join(stack.env.REPOS_ROOT, `${project.id}.git`, 'objects', oid.slice(0, 2), oid.slice(2));
    expect(existsSync(loose)).toBe(true);
    chmodSync(loose, 0o644);
    writeFileSync(loose, randomBytes(512));
  });

  const download = (path: string) =>
    fetch(`${stack.restUrl}/projects/${project.id}/repository/${path}`, { headers: { 'PRIVATE-TOKEN': owner.token } });

  it.each(['archive.tar', 'archive.tar.gz', 'archive.zip'])(
    'breaks %s off instead of ending it as if complete',
    async (path) => {
      const response = await download(`${path}?sha=master`);
      expect(response.status).toBe(200);
      await expect(response.arrayBuffer()).rejects.toThrow();
    },
  );

  it('still serves what is intact, and answers the corrupt file without a 200', async () => {
    const first = await download('blobs/master?filepath=a-first.bin');
    expect([first.status, (await first.arrayBuffer()).byteLength]).toEqual([200, 1024 * 1024]);
    const second = await download('blobs/master?filepath=b-second.bin');
    await second.arrayBuffer().catch(() => {});
    expect(second.status).not.toBe(200);
  });
});
