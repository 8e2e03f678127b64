import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, collect, failureKind, startHarness } from '../testing/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

describe('RepositoryService', () => {
  it('CreateRepository: an empty bare repository with HEAD on the default branch; again is a no-op', async () => {
    await call(h.repository, 'CreateRepository', { repository: { projectId: 500 }, defaultBranch: 'main' });
    await call(h.repository, 'CreateRepository', { repository: { projectId: 500 }, defaultBranch: 'other' });
    expect(readFileSync(join(h.root, '500.git', 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/main');
    expect(await call(h.repository, 'RepositoryInfo', { repository: { projectId: 500 } })).toEqual({
      exists: true,
      empty: true,
      defaultBranch: 'main',
    });
    expect(
      await failureKind(
        call(h.repository, 'CreateRepository', { repository: { projectId: 501 }, defaultBranch: '-x' }),
      ),
    ).toBe('INVALID_ARGUMENT');
  });

  it('ForkRepository: shares objects through alternates, and keeps working when the source is deleted', async () => {
    const source = await h.repo([{ files: { 'a.txt': 'a' } }, { files: { 'b.txt': 'b' } }]);
    await call(h.repository, 'ForkRepository', { repository: { projectId: 600 }, source: source.repository });
    const fork = join(h.root, '600.git');
    expect(readFileSync(join(fork, 'objects', 'info', 'alternates'), 'utf8')).toContain(`${source.projectId}.git`);
    const { branches } = await call(h.ref, 'ListBranches', { repository: { projectId: 600 } });
    expect(branches.map((b: { name: string }) => b.name)).toEqual(['master']);
    // A fork of the fork borrows through the first fork.
    await call(h.repository, 'ForkRepository', { repository: { projectId: 601 }, source: { projectId: 600 } });
    await call(h.repository, 'DeleteRepository', { repository: source.repository });
    expect(existsSync(source.bare)).toBe(false);
    expect(
      execFileSync('git', ['fsck', '--no-progress'], { cwd: join(h.root, '601.git'), stdio: 'pipe' }).toString(),
    ).toBe('');
    expect(readFileSync(join(source.bare.replace(/\d+\.git$/, '600.git'), 'HEAD'), 'utf8')).toContain(
      'refs/heads/master',
    );
    expect(existsSync(join(fork, 'objects', 'info', 'alternates'))).toBe(false);
    expect(execFileSync('git', ['fsck', '--no-progress'], { cwd: fork, stdio: 'pipe' }).toString()).toBe('');
    const blob = await collect(h.blob, 'GetBlob', { repository: { projectId: 600 }, ref: 'master', path: 'b.txt' });
    expect(Buffer.concat(blob.filter((m) => m.data).map((m) => m.data)).toString()).toBe('b');
    await call(h.repository, 'DeleteRepository', { repository: source.repository });
  });

  it('ImportRepository: fetches branches and tags from a URL; internal addresses are refused unless allowed', async () => {
    const source = await h.repo([{ files: { 'a.txt': 'a' } }]);
    source.git('tag', 'v1');
    source.git('push', '--quiet', 'origin', 'v1');
    await call(h.repository, 'CreateRepository', { repository: { projectId: 700 }, defaultBranch: 'master' });
    expect(
      await failureKind(call(h.repository, 'ImportRepository', { repository: { projectId: 700 }, url: 'file:///etc' })),
    ).toBe('INVALID_ARGUMENT');
    expect(
      await failureKind(
        call(h.repository, 'ImportRepository', { repository: { projectId: 700 }, url: '--upload-pack=touch /tmp/x' }),
      ),
    ).toBe('INVALID_ARGUMENT');
  });
});
