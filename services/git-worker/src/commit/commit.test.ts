import { execFileSync } from 'node:child_process';
import { call, failureKind, startHarness } from '../testing/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const bareGit = (bare: string, ...args: string[]) => execFileSync('git', args, { cwd: bare }).toString('utf8').trim();
const author = { name: 'Ada Lovelace', email: 'ada@example.com' };
const commitFile = (repository: object, action: string, path: string, content = '', branch = 'master') =>
  call(h.commit, 'CommitFile', {
    repository,
    branch,
    action,
    path,
    content: Buffer.from(content),
    message: `${action} ${path}`,
    author,
    userId: 7,
    username: 'ada',
  });

describe('CommitService', () => {
  it('ListCommits pages a ref history newest first, with the count of all of it', async () => {
    const r = await h.repo([1, 2, 3, 4, 5].map((n) => ({ files: { 'n.txt': `${n}\n` }, message: `commit ${n}` })));
    const page = await call(h.commit, 'ListCommits', { repository: r.repository, ref: 'master', offset: 1, limit: 2 });
    expect(page.total).toBe(5);
    expect(page.commits.map((c: { message: string }) => c.message.trim())).toEqual(['commit 4', 'commit 3']);
    expect(
      await failureKind(call(h.commit, 'ListCommits', { repository: r.repository, ref: 'nope', offset: 0, limit: 20 })),
    ).toBe('REF_NOT_FOUND');
    expect(
      await failureKind(
        call(h.commit, 'ListCommits', { repository: r.repository, ref: '--output=/tmp/x', offset: 0, limit: 20 }),
      ),
    ).toBe('INVALID_ARGUMENT');
  });

  it('CommitDiff shows a commit against its first parent, and a root commit against nothing', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a\n' } }, { files: { 'a.txt': 'b\n', 'c.txt': 'c\n' } }]);
    const tip = await call(h.commit, 'CommitDiff', { repository: r.repository, ref: 'master' });
    expect(tip.diffs.map((d: { newPath: string; newFile: boolean }) => [d.newPath, d.newFile])).toEqual([
      ['a.txt', false],
      ['c.txt', true],
    ]);
    expect(tip.diffs[0].diff).toContain('-a\n+b');
    const root = await call(h.commit, 'CommitDiff', { repository: r.repository, ref: tip.commit.parentIds[0] });
    expect(root.diffs.map((d: { newPath: string; newFile: boolean }) => [d.newPath, d.newFile])).toEqual([
      ['a.txt', true],
    ]);
  });

  it('CommitFile creates, updates and deletes a file with one commit each, without a working tree, and records each as a push', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a\n' } }]);
    const before = bareGit(r.bare, 'rev-parse', 'master');
    const created = await commitFile(r.repository, 'CREATE', 'docs/new.md', '# new\n');
    expect(bareGit(r.bare, 'rev-parse', 'master')).toBe(created.commitId);
    expect(bareGit(r.bare, 'show', 'master:docs/new.md')).toBe('# new');
    expect(bareGit(r.bare, 'log', '-1', '--format=%P|%an <%ae>|%s', 'master')).toBe(
      `${before}|Ada Lovelace <ada@example.com>|CREATE docs/new.md`,
    );
    const updated = await commitFile(r.repository, 'UPDATE', 'docs/new.md', '# changed\n');
    expect(bareGit(r.bare, 'show', 'master:docs/new.md')).toBe('# changed');
    await commitFile(r.repository, 'DELETE', 'docs/new.md');
    expect(bareGit(r.bare, 'ls-tree', '-r', '--name-only', 'master')).toBe('a.txt');
    const mine = h.pushes.filter((p) => p.projectId === r.projectId);
    expect(mine.map((p) => [p.update.before, p.userId, p.update.ref])).toEqual([
      [before, 7, 'refs/heads/master'],
      [created.commitId, 7, 'refs/heads/master'],
      [updated.commitId, 7, 'refs/heads/master'],
    ]);
    // The bare repository has no working tree or index left behind.
    expect(() => bareGit(r.bare, 'rev-parse', '--verify', '--quiet', 'refs/heads/master')).not.toThrow();
    expect(require('node:fs').existsSync(`${r.bare}/index`)).toBe(false);
  });

  it('refuses what GitLab refused, changing nothing', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a\n', 'run.sh': '#!/bin/sh\n' } }]);
    r.git('update-index', '--chmod=+x', 'run.sh');
    r.git('commit', '--quiet', '-m', 'executable');
    r.git('push', '--quiet', 'origin', 'HEAD');
    const tip = bareGit(r.bare, 'rev-parse', 'master');
    expect(await failureKind(commitFile(r.repository, 'CREATE', 'a.txt', 'x'))).toBe('ALREADY_EXISTS');
    expect(await failureKind(commitFile(r.repository, 'UPDATE', 'missing.txt', 'x'))).toBe('PATH_NOT_FOUND');
    expect(await failureKind(commitFile(r.repository, 'DELETE', 'missing.txt'))).toBe('PATH_NOT_FOUND');
    expect(await failureKind(commitFile(r.repository, 'UPDATE', 'a.txt', 'a\n'))).toBe('ALREADY_EXISTS');
    expect(await failureKind(commitFile(r.repository, 'CREATE', 'b.txt', 'x', 'no-such-branch'))).toBe('REF_NOT_FOUND');
    expect(await failureKind(commitFile(r.repository, 'CREATE', 'a.txt/inside', 'x'))).toBe('INVALID_ARGUMENT');
    for (const path of ['../escape', '/', 'a/../../b', 'x\0y'])
      expect(await failureKind(commitFile(r.repository, 'CREATE', path, 'x'))).toBe('INVALID_ARGUMENT');
    for (const branch of ['--upload-pack=x', 'a..b', 'HEAD@{1}'])
      expect(await failureKind(commitFile(r.repository, 'CREATE', 'b.txt', 'x', branch))).toBe('INVALID_ARGUMENT');
    expect(bareGit(r.bare, 'rev-parse', 'master')).toBe(tip);
    // An update keeps an executable executable.
    await commitFile(r.repository, 'UPDATE', 'run.sh', '#!/bin/sh\necho hi\n');
    expect(bareGit(r.bare, 'ls-tree', 'master', 'run.sh').split(' ')[0]).toBe('100755');
  });

  it('starts the first branch of an empty repository with a created file', async () => {
    const r = await h.repo([]);
    const { commitId } = await commitFile(r.repository, 'CREATE', 'README.md', 'hello\n');
    expect(bareGit(r.bare, 'rev-parse', 'master')).toBe(commitId);
    expect(bareGit(r.bare, 'log', '--format=%P', 'master')).toBe('');
    expect(h.pushes.find((p) => p.projectId === r.projectId)).toMatchObject({
      wasEmpty: true,
      update: { before: '0'.repeat(40), after: commitId },
    });
  });
});
