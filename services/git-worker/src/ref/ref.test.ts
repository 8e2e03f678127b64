import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, failureKind, startHarness } from '../testing/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

describe('RefService', () => {
  it('ListBranches: every branch with its commit, by name', async () => {
    const r = await h.repo([
      { files: { 'a.txt': 'a' }, message: 'first\n\nbody' },
      { files: { 'b.txt': 'b' }, branch: 'feature/x', message: 'second' },
    ]);
    const { branches } = await call(h.ref, 'ListBranches', { repository: r.repository });
    expect(branches.map((b: { name: string }) => b.name)).toEqual(['feature/x', 'master']);
    const master = branches[1].commit;
    expect(master).toMatchObject({
      message: 'first\n\nbody\n',
      author: { name: 'Ada Lovelace', email: 'ada@example.com' },
      parentIds: [],
    });
    expect(master.id).toMatch(/^[0-9a-f]{40}$/);
    expect(master.author.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(branches[0].commit.parentIds).toEqual([master.id]);
  });

  it('ListBranches: an empty repository has none', async () => {
    const r = await h.repo();
    expect((await call(h.ref, 'ListBranches', { repository: r.repository })).branches).toEqual([]);
  });

  it('FindBranch: one branch, or REF_NOT_FOUND; hostile names never reach git', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    expect((await call(h.ref, 'FindBranch', { repository: r.repository, name: 'master' })).name).toBe('master');
    expect(await failureKind(call(h.ref, 'FindBranch', { repository: r.repository, name: 'nope' }))).toBe(
      'REF_NOT_FOUND',
    );
    expect(await failureKind(call(h.ref, 'FindBranch', { repository: r.repository, name: '--upload-pack=x' }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await failureKind(call(h.ref, 'FindBranch', { repository: { projectId: 9999 }, name: 'master' }))).toBe(
      'REPOSITORY_NOT_FOUND',
    );
  });

  it('CreateTag and ListTags: lightweight and annotated tags; existing, bad names and bad refs refused', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    const light = await call(h.ref, 'CreateTag', {
      repository: r.repository,
      name: 'v1.0',
      ref: 'master',
      message: '',
    });
    expect(light).toMatchObject({ name: 'v1.0', annotated: false, message: '' });
    const annotated = await call(h.ref, 'CreateTag', {
      repository: r.repository,
      name: 'v2.0',
      ref: light.commit.id,
      message: 'Release 2',
      tagger: { name: 'Root <x>\nevil', email: 'root@example.com' },
    });
    expect(annotated).toMatchObject({
      name: 'v2.0',
      annotated: true,
      message: 'Release 2',
      commit: { id: light.commit.id },
    });
    expect(
      execFileSync('git', ['for-each-ref', '--format=%(taggername)', 'refs/tags/v2.0'], { cwd: r.bare })
        .toString()
        .trim(),
    ).toBe('Root xevil');
    expect(await failureKind(call(h.ref, 'CreateTag', { repository: r.repository, name: 'v1.0', ref: 'master' }))).toBe(
      'ALREADY_EXISTS',
    );
    expect(
      await failureKind(call(h.ref, 'CreateTag', { repository: r.repository, name: 'bad name', ref: 'master' })),
    ).toBe('INVALID_ARGUMENT');
    expect(
      await failureKind(call(h.ref, 'CreateTag', { repository: r.repository, name: 'v3', ref: 'no-such-branch' })),
    ).toBe('INVALID_ARGUMENT');
    // A tag named like a branch would shadow it wherever the name is resolved.
    expect(
      await failureKind(call(h.ref, 'CreateTag', { repository: r.repository, name: 'master', ref: 'master' })),
    ).toBe('INVALID_ARGUMENT');
    const { tags } = await call(h.ref, 'ListTags', { repository: r.repository });
    expect(tags.map((t: { name: string }) => t.name)).toEqual(['v1.0', 'v2.0']);
  });

  it('FindCommit: resolves branches, tags and shas', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    const sha = r.git('rev-parse', 'HEAD');
    expect((await call(h.ref, 'FindCommit', { repository: r.repository, ref: 'master' })).id).toBe(sha);
    expect((await call(h.ref, 'FindCommit', { repository: r.repository, ref: sha })).id).toBe(sha);
    expect(await failureKind(call(h.ref, 'FindCommit', { repository: r.repository, ref: '-o' }))).toBe(
      'INVALID_ARGUMENT',
    );
    // An annotated tag peels to its commit; a blob, or a name of nothing, is no commit.
    r.git('tag', '-a', '-m', 'release', 'v1');
    r.git('push', '--quiet', 'origin', 'v1');
    expect((await call(h.ref, 'FindCommit', { repository: r.repository, ref: 'v1' })).id).toBe(sha);
    expect(
      await failureKind(call(h.ref, 'FindCommit', { repository: r.repository, ref: r.git('rev-parse', 'HEAD:a.txt') })),
    ).toBe('REF_NOT_FOUND');
    expect(await failureKind(call(h.ref, 'FindCommit', { repository: r.repository, ref: 'nowhere' }))).toBe(
      'REF_NOT_FOUND',
    );
    // The warm reader answers for the branch as it is now, after a push moved it.
    writeFileSync(join(r.work, 'a.txt'), 'b');
    r.git('commit', '--quiet', '-am', 'second');
    r.git('push', '--quiet', 'origin', 'HEAD');
    const moved = await call(h.ref, 'FindCommit', { repository: r.repository, ref: 'master' });
    expect([moved.id, moved.parentIds, moved.message.trim()]).toEqual([r.git('rev-parse', 'HEAD'), [sha], 'second']);
  });

  it('CreateBranch and DeleteBranch: made and removed by compare-and-swap, each recorded as a push', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    const bare = (...args: string[]) => execFileSync('git', args, { cwd: r.bare }).toString('utf8').trim();
    const tip = bare('rev-parse', 'master');
    const pusher = { userId: 9, username: 'grace' };
    const made = await call(h.ref, 'CreateBranch', {
      repository: r.repository,
      name: 'topic/one',
      ref: 'master',
      pusher,
    });
    expect([made.name, made.commit.id]).toEqual(['topic/one', tip]);
    expect(bare('rev-parse', 'refs/heads/topic/one')).toBe(tip);
    expect(
      await failureKind(
        call(h.ref, 'CreateBranch', { repository: r.repository, name: 'topic/one', ref: 'master', pusher }),
      ),
    ).toBe('ALREADY_EXISTS');
    expect(
      await failureKind(call(h.ref, 'CreateBranch', { repository: r.repository, name: 'two', ref: 'nowhere', pusher })),
    ).toBe('REF_NOT_FOUND');
    for (const name of ['-x', 'a..b', 'a b', 'x.lock', 'HEAD@{0}']) {
      expect(
        await failureKind(call(h.ref, 'CreateBranch', { repository: r.repository, name, ref: 'master', pusher })),
      ).toBe('INVALID_ARGUMENT');
    }
    await call(h.ref, 'DeleteBranch', { repository: r.repository, name: 'topic/one', pusher });
    expect(bare('for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/master');
    expect(
      await failureKind(call(h.ref, 'DeleteBranch', { repository: r.repository, name: 'topic/one', pusher })),
    ).toBe('REF_NOT_FOUND');
    const ZERO = '0'.repeat(40);
    expect(
      h.pushes
        .filter((p) => p.projectId === r.projectId)
        .map((p) => [p.update.before, p.update.after, p.update.ref, p.userId]),
    ).toEqual([
      [ZERO, tip, 'refs/heads/topic/one', 9],
      [tip, ZERO, 'refs/heads/topic/one', 9],
    ]);
  });

  it('deletes a branch deleted many times at once once: the others find no such branch', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    await call(h.ref, 'CreateBranch', { repository: r.repository, name: 'doomed', ref: 'master' });
    const results = await Promise.all(
      Array.from({ length: 16 }, () =>
        failureKind(call(h.ref, 'DeleteBranch', { repository: r.repository, name: 'doomed' })),
      ),
    );
    expect(results.sort()).toEqual(['REF_NOT_FOUND', ...Array(14).fill('REF_NOT_FOUND'), 'ok'].sort());
  });

  it('CreateTag records a tag push', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    await call(h.ref, 'CreateTag', {
      repository: r.repository,
      name: 'v9',
      ref: 'master',
      message: '',
      pusher: { userId: 3, username: 'ada' },
    });
    expect(h.pushes.filter((p) => p.projectId === r.projectId).map((p) => [p.update.ref, p.userId])).toEqual([
      ['refs/tags/v9', 3],
    ]);
  });
});
