import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareRefsResponse } from '@hub/protos';
import { call, failureKind, startHarness } from '../testing/harness';
import { approximateJsonLength, createCompareCache } from './compare-cache';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

describe('DiffService', () => {
  it('CompareRefs: commits oldest first and per-file diffs from the merge base', async () => {
    const r = await h.repo([
      {
        files: { 'keep.txt': 'one\n', 'gone.txt': 'bye\n', 'old name.txt': 'same content here\n'.repeat(5) },
        message: 'base',
      },
      {
        files: { 'keep.txt': 'one\ntwo\n', 'gone.txt': null, 'new.txt': 'new\n' },
        branch: 'feature',
        message: 'change one',
      },
      { files: { 'old name.txt': null, 'new name.txt': 'same content here\n'.repeat(5) }, message: 'rename' },
    ]);
    const result = await call(h.diff, 'CompareRefs', { repository: r.repository, from: 'master', to: 'feature' });
    expect(result.sameRef).toBe(false);
    expect(result.timedOut).toBe(false);
    expect(result.commits.map((c: { message: string }) => c.message.trim())).toEqual(['change one', 'rename']);
    expect(result.commit.message.trim()).toBe('rename');
    const byPath = Object.fromEntries(result.diffs.map((d: { newPath: string }) => [d.newPath, d]));
    expect(byPath['keep.txt']).toMatchObject({
      oldPath: 'keep.txt',
      aMode: '100644',
      bMode: '100644',
      newFile: false,
      deletedFile: false,
    });
    expect(byPath['keep.txt'].diff).toContain('+two');
    expect(byPath['keep.txt'].diff.startsWith('--- a/keep.txt')).toBe(true);
    expect(byPath['gone.txt']).toMatchObject({ deletedFile: true, bMode: '' });
    expect(byPath['new.txt']).toMatchObject({ newFile: true, aMode: '' });
    expect(byPath['new name.txt']).toMatchObject({ renamedFile: true, oldPath: 'old name.txt' });
  });

  it('CompareRefs: a repeated compare of the same commits answers from memory; a push is a new compare at once', async () => {
    const r = await h.repo([
      { files: { 'a.txt': 'a\n' } },
      { files: { 'a.txt': 'a\nb\n' }, branch: 'feature', message: 'one' },
    ]);
    const computed: string[] = [];
    const of = h.deps.compares.of;
    const spy = jest
      .spyOn(h.deps.compares, 'of')
      .mockImplementation((repo, from, to, compute) =>
        of(repo, from, to, () => (computed.push(`${from}...${to}`), compute())),
      );
    try {
      const ask = () => call(h.diff, 'CompareRefs', { repository: r.repository, from: 'master', to: 'feature' });
      const first = await ask();
      expect(await ask()).toEqual(first);
      expect(computed).toHaveLength(1);
      writeFileSync(join(r.work, 'a.txt'), 'a\nb\nc\n');
      r.git('commit', '--quiet', '-am', 'two');
      r.git('push', '--quiet', 'origin', 'HEAD');
      const after = await ask();
      expect(after.commits.map((c: { message: string }) => c.message.trim())).toEqual(['one', 'two']);
      expect(after.diffs[0].diff).toContain('+c');
      expect(computed).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps no compare cut short by time, nor one too large for its room', async () => {
    const cache = createCompareCache({ maxBytes: 8192 });
    const answer = (timedOut: boolean, patch = '+x'): CompareRefsResponse => ({
      commit: null,
      commits: [],
      diffs: [
        {
          oldPath: 'a',
          newPath: 'a',
          aMode: '',
          bMode: '',
          newFile: false,
          deletedFile: false,
          renamedFile: false,
          diff: patch,
        },
      ],
      timedOut,
      sameRef: false,
    });
    let runs = 0;
    const compute = (value: CompareRefsResponse) => async () => (runs++, value);
    await cache.of('/repo', 'a', 'b', compute(answer(true)));
    expect((await cache.of('/repo', 'a', 'b', compute(answer(false)))).timedOut).toBe(false);
    expect((await cache.of('/repo', 'a', 'b', compute(answer(true)))).timedOut).toBe(false);
    expect(runs).toBe(2);
    await cache.of('/repo', 'c', 'd', compute(answer(false, 'x'.repeat(2000))));
    await cache.of('/repo', 'c', 'd', compute(answer(false)));
    expect(runs).toBe(4);
  });

  it('weighs a compare at about its length as JSON, without serializing it', async () => {
    const lines = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => `${tag} line ${i}: "quoted" \\ tab\t end`).join('\n') + '\n';
    const r = await h.repo([
      { files: { 'a.txt': lines(40, 'a'), 'b.md': lines(10, 'b') } },
      { files: { 'a.txt': lines(60, 'A'), 'c/d.txt': lines(30, 'c') }, branch: 'feature' },
    ]);
    const answer = await call(h.diff, 'CompareRefs', { repository: r.repository, from: 'master', to: 'feature' });
    expect(answer.diffs.length).toBeGreaterThan(1);
    const actual = JSON.stringify(answer).length;
    // Escapes are not counted: a patch of short lines full of quotes and tabs comes out ~10% under.
    expect(approximateJsonLength(answer) / actual).toBeGreaterThan(0.8);
    expect(approximateJsonLength(answer) / actual).toBeLessThan(1.05);
  });

  it('CompareRefs: the same ref, and refs that do not exist or are hostile', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'a' } }]);
    expect(await call(h.diff, 'CompareRefs', { repository: r.repository, from: 'master', to: 'master' })).toMatchObject(
      { sameRef: true, commits: [], diffs: [] },
    );
    expect(
      await failureKind(call(h.diff, 'CompareRefs', { repository: r.repository, from: 'master', to: 'nope' })),
    ).toBe('REF_NOT_FOUND');
    expect(
      await failureKind(
        call(h.diff, 'CompareRefs', { repository: r.repository, from: '--output=/tmp/pwned', to: 'master' }),
      ),
    ).toBe('INVALID_ARGUMENT');
  });

  it('CompareRefs: histories with no common commit are diffed from `from` itself', async () => {
    const r = await h.repo([{ files: { 'shared.txt': 'master\n', 'only-master.txt': 'm\n' } }]);
    r.git('checkout', '--quiet', '--orphan', 'other');
    r.git('rm', '--quiet', '-r', '--cached', '.');
    require('node:fs').rmSync(require('node:path').join(r.work, 'only-master.txt'));
    require('node:fs').writeFileSync(require('node:path').join(r.work, 'shared.txt'), 'other\n');
    r.git('add', 'shared.txt');
    r.git('commit', '--quiet', '-m', 'unrelated');
    r.git('push', '--quiet', 'origin', 'other');
    const result = await call(h.diff, 'CompareRefs', { repository: r.repository, from: 'master', to: 'other' });
    expect(result.commits.map((c: { message: string }) => c.message.trim())).toEqual(['unrelated']);
    const byPath = Object.fromEntries(result.diffs.map((d: { newPath: string }) => [d.newPath, d]));
    expect(Object.keys(byPath).sort()).toEqual(['only-master.txt', 'shared.txt']);
    expect(byPath['only-master.txt']).toMatchObject({ deletedFile: true });
    expect(byPath['shared.txt'].diff).toContain('+other');
  });

  it('CompareRefs: a diff too large for one answer is cut short (timedOut), not a failure', async () => {
    const huge = Array.from({ length: 200_000 }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n'); // ~13 MiB of patch
    const r = await h.repo([{ files: { 'a.txt': 'a\n' } }, { files: { 'huge.txt': huge }, branch: 'big' }]);
    const result = await call(h.diff, 'CompareRefs', { repository: r.repository, from: 'master', to: 'big' });
    expect(result).toMatchObject({ timedOut: true, diffs: [], sameRef: false });
    expect(result.commits).toHaveLength(1);
  });

  it('ListContributors: commits, additions and deletions per author on the default branch', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'one\ntwo\n' } }, { files: { 'a.txt': 'one\n' } }]);
    const { contributors } = await call(h.diff, 'ListContributors', { repository: r.repository });
    expect(contributors).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com', commits: 2, additions: 2, deletions: 1 },
    ]);
    expect((await call(h.diff, 'ListContributors', { repository: (await h.repo()).repository })).contributors).toEqual(
      [],
    );
  });
});
