import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommits, readObjects } from './objects';

describe('readObjects', () => {
  let repo: string;
  let commit: string;
  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'hub-objects-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.name=A', '-c', 'user.email=a@example.com', ...args])
        .toString()
        .trim();
    git('init', '-q', '-b', 'master');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git('add', '.');
    git('commit', '-qm', 'first');
    commit = git('rev-parse', 'HEAD');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('reads the objects in order, a missing one as null', async () => {
    const [found, missing] = await readObjects(repo, [commit, 'f'.repeat(40)]);
    expect(found).toMatchObject({ oid: commit, type: 'commit' });
    expect(missing).toBeNull();
    expect((await readCommits(repo, [commit]))[0]).toMatchObject({
      id: commit,
      message: 'first\n',
      author: { name: 'A' },
    });
  });

  it('fails with git’s reason where there is no repository (one emptied mid-push), not as output that ended early', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'hub-no-repository-'));
    try {
      await expect(readObjects(empty, [commit])).rejects.toThrow(
        /cat-file failed \(128\): fatal: not a git repository/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
