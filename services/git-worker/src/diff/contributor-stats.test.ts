import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnGit } from '../git/run';
import { call, startHarness } from '../testing/harness';
import { createContributorStats, NumstatLogParser } from './contributor-stats';

/** What `git log --numstat --format=%x00%aN%x00%aE` prints for three commits by two authors (one email in two spellings). */
const LOG = Buffer.from(
  [
    '\0Grüße Ünïcode\0Ada@Example.com',
    '',
    '3\t1\tsrc/a.txt',
    '-\t-\tbin/data.bin',
    '\0Bob\0bob@example.com',
    '',
    '10\t0\tnew name.txt',
    '0\t2\t{old => new}/b.txt',
    '\0Ada Old Name\0ada@example.com',
    '',
    '1\t1\tsrc/a.txt',
    '',
  ].join('\n'),
);
const EXPECTED = [
  { name: 'Grüße Ünïcode', email: 'Ada@Example.com', commits: 2, additions: 4, deletions: 2 },
  { name: 'Bob', email: 'bob@example.com', commits: 1, additions: 10, deletions: 2 },
];

const parse = (chunks: Buffer[]) => {
  const parser = new NumstatLogParser();
  for (const chunk of chunks) parser.push(chunk);
  return parser.end();
};

describe('NumstatLogParser', () => {
  it('sums per author by email whatever the chunk boundaries (every split point, inside multi-byte names too, and byte by byte)', () => {
    for (let at = 0; at <= LOG.length; at++) expect(parse([LOG.subarray(0, at), LOG.subarray(at)])).toEqual(EXPECTED);
    expect(parse([...LOG].map((byte) => Buffer.from([byte])))).toEqual(EXPECTED);
  });

  it('takes a last line without its newline, and nothing at all', () => {
    expect(parse([LOG.subarray(0, LOG.length - 1)])).toEqual(EXPECTED);
    expect(parse([])).toEqual([]);
  });
});

describe('contributor stats: cache and single flight', () => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  /** A stats instance whose `git log` runs are counted (the rev-list that looks for a middle is not). */
  const counted = (options: { maxEntries?: number } = {}) => {
    const runs: string[][] = [];
    const stats = createContributorStats({
      ...options,
      spawn: (cwd, args, env) => (args[0] === 'log' && runs.push(args), spawnGit(cwd, args, env)),
    });
    return { stats, runs };
  };
  const head = (r: { git: (...args: string[]) => string }) => r.git('rev-parse', 'HEAD');

  it('answers a repeated request from the cache, the same as an uncached count', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'one\ntwo\n' } }, { files: { 'a.txt': 'one\n', 'b.txt': 'b\n' } }]);
    const { stats, runs } = counted();
    const first = await stats.of(r.bare, head(r));
    const again = await stats.of(r.bare, head(r));
    expect(runs).toHaveLength(1);
    expect(again).toEqual(first);
    expect(await createContributorStats().of(r.bare, head(r))).toEqual(first);
    expect(first).toEqual([{ name: 'Ada Lovelace', email: 'ada@example.com', commits: 2, additions: 3, deletions: 1 }]);
  });

  it('is keyed by commit: after a push the RPC counts the new history', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'one\n' } }]);
    const before = await call(h.diff, 'ListContributors', { repository: r.repository });
    expect(before.contributors).toMatchObject([{ commits: 1, additions: 1 }]);
    writeFileSync(join(r.work, 'a.txt'), 'one\ntwo\nthree\n');
    r.git('commit', '--quiet', '-am', 'more');
    r.git('push', '--quiet', 'origin', 'HEAD');
    const after = await call(h.diff, 'ListContributors', { repository: r.repository });
    expect(after.contributors).toMatchObject([{ commits: 2, additions: 3 }]);
  });

  it('runs git once for concurrent requests of the same commit, and again for another commit', async () => {
    const r = await h.repo([{ files: { 'a.txt': 'one\n' } }, { files: { 'a.txt': 'two\n' } }]);
    const { stats, runs } = counted();
    const answers = await Promise.all(Array.from({ length: 32 }, () => stats.of(r.bare, head(r))));
    expect(runs).toHaveLength(1);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await stats.of(r.bare, r.git('rev-parse', 'HEAD~1'));
    expect(runs).toHaveLength(2);
  });

  it('keeps at most maxEntries answers, dropping the least recently used', async () => {
    const r = await h.repo([
      { files: { 'a.txt': '1\n' } },
      { files: { 'a.txt': '2\n' } },
      { files: { 'a.txt': '3\n' } },
    ]);
    const [c1, c2, c3] = ['HEAD~2', 'HEAD~1', 'HEAD'].map((ref) => r.git('rev-parse', ref));
    const { stats, runs } = counted({ maxEntries: 2 });
    await stats.of(r.bare, c1);
    await stats.of(r.bare, c2);
    await stats.of(r.bare, c1); // c1 is now the most recently used
    await stats.of(r.bare, c3); // c2 goes
    expect(runs).toHaveLength(3);
    await stats.of(r.bare, c1);
    expect(runs).toHaveLength(3);
    await stats.of(r.bare, c2);
    expect(runs).toHaveLength(4);
  });

  it('walks a long history in two halves side by side, with the answer one walk gives', async () => {
    const r = await h.repo([{ files: { 'a.txt': '1\n' } }]);
    const commit = (name: string, email: string, file: string, content: string) => {
      writeFileSync(join(r.work, file), content);
      r.git('add', '-A');
      r.git('-c', `user.name=${name}`, '-c', `user.email=${email}`, 'commit', '--quiet', '-m', file);
    };
    for (let i = 0; i < 6; i++)
      commit(i % 2 ? 'Bob' : 'Ada', i % 2 ? 'bob@example.com' : 'ada@example.com', `f${i}.txt`, `${i}\n`.repeat(i + 1));
    // A side branch merged in, and the newest commit by Bob under another name and spelling.
    r.git('checkout', '--quiet', '-b', 'side', 'HEAD~3');
    commit('Cy', 'cy@example.com', 'side.txt', 's\n');
    r.git('checkout', '--quiet', 'master');
    r.git('merge', '--quiet', '--no-edit', 'side');
    commit('Robert', 'BOB@example.com', 'g.txt', 'x\ny\n');
    r.git('push', '--quiet', 'origin', 'HEAD');
    const logs: string[][] = [];
    const split = createContributorStats({
      splitFrom: 2,
      spawn: (cwd, args, env) => (args[0] === 'log' && logs.push(args), spawnGit(cwd, args, env)),
    });
    const whole = await createContributorStats({ splitFrom: Number.MAX_SAFE_INTEGER }).of(r.bare, head(r));
    expect(await split.of(r.bare, head(r))).toEqual(whole);
    expect(logs).toHaveLength(2);
    expect(whole.map((c) => [c.name, c.email, c.commits])).toEqual([
      ['Ada', 'ada@example.com', 4],
      ['Robert', 'BOB@example.com', 4],
      ['Cy', 'cy@example.com', 1],
    ]);
  });

  it("splits a repository's next count by its last one's length: both halves start at once, no rev-list, the answer one walk gives", async () => {
    const r = await h.repo([{ files: { 'a.txt': '1\n' } }]);
    for (let i = 0; i < 8; i++) {
      writeFileSync(join(r.work, `f${i}.txt`), `${i}\n`.repeat(i + 1));
      r.git('add', '-A');
      r.git(
        '-c',
        `user.name=${i % 3 ? 'Bob' : 'Ada'}`,
        '-c',
        `user.email=${i % 3 ? 'bob' : 'ada'}@example.com`,
        'commit',
        '--quiet',
        '-m',
        `f${i}`,
      );
    }
    r.git('push', '--quiet', 'origin', 'HEAD');
    const runs: string[][] = [];
    const stats = createContributorStats({
      splitFrom: 2,
      spawn: (cwd, args, env) => (runs.push(args), spawnGit(cwd, args, env)),
    });
    const whole = (ref: string) =>
      createContributorStats({ splitFrom: Number.MAX_SAFE_INTEGER }).of(r.bare, r.git('rev-parse', ref));
    // The first count knows no length: a rev-list finds the middle. It saw 8 of the 9 commits.
    expect(await stats.of(r.bare, r.git('rev-parse', 'HEAD~1'))).toEqual(await whole('HEAD~1'));
    expect(runs.map((args) => args[0])).toEqual(['rev-list', 'log', 'log']);
    runs.length = 0;
    expect(await stats.of(r.bare, head(r))).toEqual(await whole('HEAD'));
    expect(runs.map((args) => [args[0], ...args.filter((arg) => /^--(skip|max-count)=/.test(arg))])).toEqual([
      ['log', '--max-count=4'],
      ['log', '--skip=4'],
    ]);
    // A much shorter history than the last count's: the older half is empty, the answer still whole.
    runs.length = 0;
    expect(await stats.of(r.bare, r.git('rev-parse', 'HEAD~7'))).toEqual(await whole('HEAD~7'));
    expect(
      runs.map((args) => args.find((arg) => arg.startsWith('--skip')) ?? args.find((arg) => arg.startsWith('--max'))),
    ).toEqual(['--max-count=4', '--skip=4']);
  });

  it('does not cache a failed count', async () => {
    const r = await h.repo([{ files: { 'a.txt': '1\n' } }]);
    const { stats, runs } = counted();
    await expect(stats.of(r.bare, 'f'.repeat(40))).rejects.toThrow('git log exited');
    await expect(stats.of(r.bare, 'f'.repeat(40))).rejects.toThrow('git log exited');
    expect(runs).toHaveLength(2);
  });
});
