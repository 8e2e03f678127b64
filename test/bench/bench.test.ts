import { createHash } from 'node:crypto';
import { fastImportStream, MIB } from './seed/fast-import';
import { parseOptions } from './options';
import { fmtBytes, fmtRatio, markdownTable, verdict } from './report';
import { median, percentile } from './stats';

const digest = (spec: Parameters<typeof fastImportStream>[0]) => {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const chunk of fastImportStream(spec)) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha: hash.digest('hex'), bytes };
};

describe('bench', () => {
  it('generates the same fast-import stream every time, sized by its spec', () => {
    const spec = { commits: 120, rootFiles: 10, headMiB: 3, historyMiB: 2 };
    const first = digest(spec);
    expect(digest(spec)).toEqual(first);
    // Every asset once in the head tree and the rewritten ones once more in history.
    expect(first.bytes).toBeGreaterThan(5 * MIB);
    expect(first.bytes).toBeLessThan(6 * MIB);
    expect(digest({ ...spec, commits: 121 }).sha).not.toBe(first.sha);
  });

  it('refuses a shape whose compare range would reach the assets', () => {
    expect(() => [...fastImportStream({ commits: 50, rootFiles: 10, headMiB: 3, historyMiB: 2 })]).toThrow(
      'too few commits',
    );
  });

  it('formats ratios and sizes as the report prints them', () => {
    expect(fmtRatio(0.2131)).toBe('0.21×');
    expect(fmtRatio(51 / 22_439)).toBe('0.0023×');
    expect(fmtRatio(NaN)).toBe('n/a');
    expect(fmtBytes(1.27 * 1024 ** 3)).toBe('1.27 GiB');
    expect(fmtBytes(64 * 1024 ** 2)).toBe('64 MiB');
  });

  it('is met only when every condition holds, and never on an unmeasured figure', () => {
    expect(verdict(true, true)).toBe('met');
    expect(verdict(true, false)).toBe('not met');
    const unmeasured = Number.NaN; // a probe that measured nothing
    expect(verdict(unmeasured >= 500)).toBe('not met');
  });

  it('takes medians and nearest-rank percentiles', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(percentile([5, 1, 4, 2, 3], 99)).toBe(5);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
  });

  it('runs the scenarios --only names, and refuses a name it does not know', () => {
    expect(parseOptions([]).only).toEqual([]);
    expect(parseOptions(['--quick', '--only', 'projects,repository']).only).toEqual(['projects', 'repository']);
    expect(() => parseOptions(['--only', 'projects,tags'])).toThrow(
      '--only wants some of projects, repository, large-archive, webhooks',
    );
    expect(parseOptions(['--only', 'large-archive']).archiveMiB).toBe(1024);
    expect(parseOptions(['--quick', '--archive-mib', '256']).archiveMiB).toBe(256);
    expect(() => parseOptions(['--only'])).toThrow('--only wants');
  });

  it('escapes pipes in table cells', () => {
    expect(markdownTable(['a'], [['x | y']])).toBe('| a |\n| --- |\n| x \\| y |');
  });
});
