import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, startHarness } from '../testing/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}`).join('\n') + '\n';

/** What the git CLI says the compare is: `rev-list --reverse to ^from` and `git diff from...to`'s files. */
function cli(bare: string, from: string, to: string) {
  const git = (...args: string[]) => execFileSync('git', ['-C', bare, ...args]).toString('utf8');
  const ids = git('rev-list', '--reverse', to, `^${from}`).split('\n').filter(Boolean);
  const files = git('diff', '--name-only', `${from}...${to}`).split('\n').filter(Boolean).sort();
  return { ids, files };
}

/** The worker's compare, and how many git processes it started. */
async function compare(repository: { projectId: number }, from: string, to: string) {
  const started = jest.spyOn(h.deps, 'startGit');
  try {
    const answer = await call(h.diff, 'CompareRefs', { repository, from, to });
    return { answer, processes: started.mock.calls.length };
  } finally {
    started.mockRestore();
  }
}

const shape = (answer: { commits: Array<{ id: string }>; diffs: Array<{ newPath: string }> }) => ({
  ids: answer.commits.map((c) => c.id),
  files: answer.diffs.map((d) => d.newPath).sort(),
});

describe('CompareRefs over a linear range', () => {
  it('walks the range and diffs it in the warm processes, with the answer the git CLI gives', async () => {
    const r = await h.repo([
      { files: { 'a.txt': lines(50, 'a'), 'b.txt': lines(20, 'b'), 'old.txt': lines(30, 'same') } },
      ...Array.from({ length: 40 }, (_, i) => ({
        files: { 'a.txt': lines(50 + i, 'a'), [`new-${i}.txt`]: `${i}\n` },
        branch: 'feature',
        message: `step ${i}`,
      })),
      { files: { 'old.txt': null, 'renamed.txt': lines(30, 'same') }, message: 'rename' },
    ]);
    const { answer, processes } = await compare(r.repository, 'master', 'feature');
    expect(processes).toBe(0);
    expect(answer.timedOut).toBe(false);
    expect(shape(answer)).toEqual(cli(r.bare, 'master', 'feature'));
    expect(answer.commit.message.trim()).toBe('rename');
    const byPath = Object.fromEntries(answer.diffs.map((d: { newPath: string }) => [d.newPath, d]));
    expect(byPath['renamed.txt']).toMatchObject({ renamedFile: true, oldPath: 'old.txt' });
    expect(byPath['a.txt'].diff.startsWith('--- a/a.txt')).toBe(true);
    expect(byPath['new-0.txt']).toMatchObject({ newFile: true, aMode: '', bMode: '100644' });
    // Again from the other end: `to` behind `from` has no commits of its own.
    const back = await compare(r.repository, 'feature', 'master');
    expect(shape(back.answer)).toEqual(cli(r.bare, 'feature', 'master'));
  });

  it('answers a range with a merge in it, or branches that diverged, as rev-list and three dots do', async () => {
    const r = await h.repo([
      { files: { 'a.txt': lines(10, 'a') } },
      { files: { 'side.txt': 'side\n' }, branch: 'side', message: 'side' },
    ]);
    r.git('checkout', '--quiet', '-b', 'feature', 'master');
    writeFileSync(join(r.work, 'f.txt'), 'feature\n');
    r.git('add', 'f.txt');
    r.git('commit', '--quiet', '-m', 'feature');
    r.git('merge', '--quiet', '--no-ff', '-m', 'merge side', 'side');
    r.git('push', '--quiet', 'origin', 'feature');
    r.git('checkout', '--quiet', 'master');
    writeFileSync(join(r.work, 'm.txt'), 'master moved\n');
    r.git('add', 'm.txt');
    r.git('commit', '--quiet', '-m', 'master moved');
    r.git('push', '--quiet', 'origin', 'master');
    for (const [from, to] of [
      ['master', 'feature'],
      ['side', 'feature'],
      ['feature', 'master'],
    ]) {
      const { answer } = await compare(r.repository, from, to);
      expect(shape(answer)).toEqual(cli(r.bare, from, to));
    }
  });

  it('diffs beside a busy differ with a process of its own', async () => {
    const r = await h.repo([
      { files: { 'a.txt': 'a\n' } },
      { files: { 'a.txt': 'a\nb\n' }, branch: 'feature', message: 'one' },
    ]);
    const differ = h.deps.readers.differ(r.bare);
    const busy = jest.spyOn(differ, 'busy', 'get').mockReturnValue(true);
    try {
      const { answer, processes } = await compare(r.repository, 'master', 'feature');
      expect(processes).toBe(1);
      expect(answer.diffs.map((d: { diff: string }) => d.diff)).toEqual([expect.stringContaining('+b')]);
    } finally {
      busy.mockRestore();
    }
  });
});
