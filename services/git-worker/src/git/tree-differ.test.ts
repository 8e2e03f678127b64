import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TreeDiffer } from './tree-differ';

let repo: string;
const commits: string[] = [];
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo })
    .toString('utf8')
    .trim();

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'tree-differ-'));
  git('init', '--quiet');
  for (const text of ['one\n', 'one\ntwo\n', 'one\ntwo\nthree\n']) {
    writeFileSync(join(repo, 'a.txt'), text);
    git('add', 'a.txt');
    git('commit', '--quiet', '-m', text);
    commits.push(git('rev-parse', 'HEAD'));
  }
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const limits = { timeoutMs: 10_000, maxOutput: 1024 * 1024 };
/** The same diff from a `git diff` of its own (its raw part with whole ids, as diff-tree writes them). */
const cliDiff = (from: string, to: string) =>
  execFileSync('git', ['diff', '--raw', '-p', '-z', '--full-index', '--no-abbrev', '-M', from, to], { cwd: repo });

describe('TreeDiffer', () => {
  it("answers diffs one after another from one process, byte for byte git diff's", async () => {
    const differ = new TreeDiffer(repo);
    try {
      expect((await differ.diff(commits[1], commits[0], limits))!.equals(cliDiff(commits[0], commits[1]))).toBe(true);
      expect((await differ.diff(commits[2], commits[0], limits))!.equals(cliDiff(commits[0], commits[2]))).toBe(true);
      // A commit against itself: no output at all, still answered.
      expect((await differ.diff(commits[2], commits[2], limits))!.length).toBe(0);
    } finally {
      differ.close();
    }
  });

  it('runs one diff at a time, and refuses anything but full commit ids', async () => {
    const differ = new TreeDiffer(repo);
    try {
      const first = differ.diff(commits[1], commits[0], limits);
      expect(differ.busy).toBe(true);
      await expect(differ.diff(commits[2], commits[0], limits)).rejects.toThrow('busy');
      await first;
      expect(differ.busy).toBe(false);
      await expect(differ.diff('HEAD', commits[0], limits)).rejects.toThrow('full commit ids');
      await expect(differ.diff(`${commits[1]}\n${commits[0]}`, commits[0], limits)).rejects.toThrow('full commit ids');
    } finally {
      differ.close();
    }
  });

  it('cuts a diff larger than its limit short, and starts again for the next one', async () => {
    const differ = new TreeDiffer(repo);
    try {
      expect(await differ.diff(commits[2], commits[0], { ...limits, maxOutput: 10 })).toBeNull();
      expect((await differ.diff(commits[2], commits[1], limits))!.equals(cliDiff(commits[1], commits[2]))).toBe(true);
    } finally {
      differ.close();
    }
  });
});
