import { execFileSync } from 'node:child_process';
import { call, failureKind, startHarness } from '../testing/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const bareGit = (bare: string, ...args: string[]) => execFileSync('git', args, { cwd: bare }).toString('utf8').trim();

describe('MergeService', () => {
  it('CheckMergeability and MergeBranch: a clean merge makes a merge commit with both parents', async () => {
    const r = await h.repo([
      { files: { 'a.txt': 'a\n' }, message: 'base' },
      { files: { 'b.txt': 'b\n' }, branch: 'feature', message: 'feature' },
    ]);
    r.git('checkout', '--quiet', 'master');
    r.git('-c', 'user.name=X', '-c', 'user.email=x@x', 'commit', '--quiet', '--allow-empty', '-m', 'master moves on');
    r.git('push', '--quiet', 'origin', 'master');
    expect(
      await call(h.merge, 'CheckMergeability', { repository: r.repository, source: 'feature', target: 'master' }),
    ).toEqual({ mergeable: true, conflicts: [] });
    const before = bareGit(r.bare, 'rev-parse', 'master');
    const feature = bareGit(r.bare, 'rev-parse', 'feature');
    const { commitId } = await call(h.merge, 'MergeBranch', {
      repository: r.repository,
      source: 'feature',
      target: 'master',
      message: 'Merge it',
      author: { name: 'Root\n<evil>', email: 'root@example.com' },
    });
    expect(bareGit(r.bare, 'rev-parse', 'master')).toBe(commitId);
    expect(bareGit(r.bare, 'log', '-1', '--format=%P|%an|%s', commitId)).toBe(`${before} ${feature}|Rootevil|Merge it`);
    expect(bareGit(r.bare, 'ls-tree', '--name-only', 'master').split('\n')).toEqual(['a.txt', 'b.txt']);
  });

  it('merges every one of many branches merged into one target at once (they take turns, none is refused)', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `f${i}`);
    const r = await h.repo([
      { files: { 'base.txt': 'base\n' } },
      ...names.map((name) => ({ files: { [`${name}.txt`]: `${name}\n` }, branch: name })),
    ]);
    // Each branch off master, not off the one before.
    for (const name of names) {
      r.git('checkout', '--quiet', '-B', name, 'master');
      r.git('reset', '--quiet', '--hard', 'origin/master');
      require('node:fs').writeFileSync(require('node:path').join(r.work, `${name}.txt`), `${name}\n`);
      r.git('add', '-A');
      r.git('commit', '--quiet', '-m', name);
      r.git('push', '--quiet', '--force', 'origin', name);
    }
    const results = await Promise.allSettled(
      names.map((source) =>
        call(h.merge, 'MergeBranch', {
          repository: r.repository,
          source,
          target: 'master',
          message: `merge ${source}`,
        }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(names.map(() => 'fulfilled'));
    expect(bareGit(r.bare, 'ls-tree', '--name-only', 'master').split('\n').sort()).toEqual(
      ['base.txt', ...names.map((n) => `${n}.txt`)].sort(),
    );
    expect(bareGit(r.bare, 'rev-list', '--merges', '--count', 'master')).toBe(String(names.length));
    // A guard against a hang, not a figure: twelve merges of a few git commands each, one at a
    // time, took 57 s on this machine with its load at 19.
  }, 120_000);

  it('refuses a conflicting merge with MERGE_CONFLICT and names the paths', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'base\n' } }, { files: { 'a.txt': 'feature\n' }, branch: 'feature' }]);
    r.git('checkout', '--quiet', 'master');
    r.git('-c', 'user.name=X', '-c', 'user.email=x@x', 'commit', '--quiet', '-am', 'x', '--allow-empty');
    require('node:fs').writeFileSync(require('node:path').join(r.work, 'a.txt'), 'master\n');
    r.git('-c', 'user.name=X', '-c', 'user.email=x@x', 'commit', '--quiet', '-am', 'master change');
    r.git('push', '--quiet', 'origin', 'master');
    expect(
      await call(h.merge, 'CheckMergeability', { repository: r.repository, source: 'feature', target: 'master' }),
    ).toEqual({ mergeable: false, conflicts: ['a.txt'] });
    const tip = bareGit(r.bare, 'rev-parse', 'master');
    expect(
      await failureKind(
        call(h.merge, 'MergeBranch', { repository: r.repository, source: 'feature', target: 'master', message: '' }),
      ),
    ).toBe('MERGE_CONFLICT');
    expect(bareGit(r.bare, 'rev-parse', 'master')).toBe(tip);
  });

  it('merges from a fork, and shows the merge request diff', async () => {
    const upstream = await h.repo([{ files: { 'a.txt': 'a\n' } }]);
    await call(h.repository, 'ForkRepository', { repository: { projectId: 900 }, source: upstream.repository });
    const fork = { projectId: 900 };
    // A commit on the fork only: push to it directly.
    upstream.git('checkout', '--quiet', '-b', 'topic');
    require('node:fs').writeFileSync(require('node:path').join(upstream.work, 'c.txt'), 'c\n');
    upstream.git('add', '-A');
    upstream.git('-c', 'user.name=X', '-c', 'user.email=x@x', 'commit', '--quiet', '-m', 'topic');
    upstream.git('push', '--quiet', `${h.root}/900.git`, 'topic');
    const diffs = await call(h.merge, 'MergeRequestDiffs', {
      repository: upstream.repository,
      source: 'topic',
      target: 'master',
      sourceRepository: fork,
    });
    expect(diffs.diffs.map((d: { newPath: string; newFile: boolean }) => [d.newPath, d.newFile])).toEqual([
      ['c.txt', true],
    ]);
    const { commitId } = await call(h.merge, 'MergeBranch', {
      repository: upstream.repository,
      source: 'topic',
      target: 'master',
      sourceRepository: fork,
    });
    expect(bareGit(upstream.bare, 'rev-parse', 'master')).toBe(commitId);
    expect(bareGit(upstream.bare, 'for-each-ref', 'refs/hub')).toBe('');
  });

  it('refuses hostile and unknown branches', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    expect(
      await failureKind(
        call(h.merge, 'CheckMergeability', { repository: r.repository, source: '--output=x', target: 'master' }),
      ),
    ).toBe('INVALID_ARGUMENT');
    expect(
      await failureKind(call(h.merge, 'MergeBranch', { repository: r.repository, source: 'nope', target: 'master' })),
    ).toBe('REF_NOT_FOUND');
  });
});
