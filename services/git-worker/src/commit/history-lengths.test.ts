import { call, startHarness } from '../testing/harness';
import { createHistoryLengths } from './history-lengths';

describe('history lengths', () => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('counts a history with git, once for concurrent asks, then from the cache; another commit is counted again', async () => {
    const r = await h.repo([1, 2, 3].map((n) => ({ files: { 'n.txt': `${n}\n` } })));
    const counted: string[] = [];
    const lengths = createHistoryLengths({
      count: (repo, commit) => (counted.push(commit), createHistoryLengths().of(repo, commit)),
    });
    const [tip, parent] = ['HEAD', 'HEAD~1'].map((ref) => r.git('rev-parse', ref));
    expect(await Promise.all(Array.from({ length: 8 }, () => lengths.of(r.bare, tip)))).toEqual(Array(8).fill(3));
    expect(await lengths.of(r.bare, tip)).toBe(3);
    expect(counted).toEqual([tip]);
    expect(await lengths.of(r.bare, parent)).toBe(2);
    expect(counted).toEqual([tip, parent]);
  });

  it('keeps at most max counts, dropping the least recently used, and does not keep a failed count', async () => {
    const counted: string[] = [];
    const lengths = createHistoryLengths({
      max: 2,
      count: async (_repo, commit) => (
        counted.push(commit),
        commit === 'bad' ? Promise.reject(new Error('no such commit')) : commit.length
      ),
    });
    await lengths.of('r', 'a');
    await lengths.of('r', 'bb');
    await lengths.of('r', 'a'); // a is now the most recently used
    await lengths.of('r', 'ccc'); // bb goes
    await lengths.of('r', 'a');
    expect(counted).toEqual(['a', 'bb', 'ccc']);
    await lengths.of('r', 'bb');
    expect(counted).toEqual(['a', 'bb', 'ccc', 'bb']);
    await expect(lengths.of('r', 'bad')).rejects.toThrow('no such commit');
    await expect(lengths.of('r', 'bad')).rejects.toThrow('no such commit');
    expect(counted.filter((c) => c === 'bad')).toHaveLength(2);
  });

  it('gives ListCommits the same total for a branch and for the sha it names, page after page', async () => {
    const r = await h.repo([1, 2, 3, 4, 5].map((n) => ({ files: { 'n.txt': `${n}\n` }, message: `commit ${n}` })));
    const first = await call(h.commit, 'ListCommits', { repository: r.repository, ref: 'master', offset: 0, limit: 2 });
    const second = await call(h.commit, 'ListCommits', {
      repository: r.repository,
      ref: r.git('rev-parse', 'HEAD'),
      offset: 2,
      limit: 2,
    });
    expect([first.total, second.total]).toEqual([5, 5]);
    expect([...first.commits, ...second.commits].map((c: { message: string }) => c.message.trim())).toEqual([
      'commit 5',
      'commit 4',
      'commit 3',
      'commit 2',
    ]);
  });
});
