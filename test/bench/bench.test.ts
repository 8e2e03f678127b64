import { createHash } from 'node:crypto';
import { fastImportStream, MIB } from './seed/fast-import';
import { parseOptions } from './options';
import { fmtBytes, fmtRatio, markdownTable, verdict } from './report';
import { streamedAtOfCursor } from './scenarios/subscribers';
import { pairDeliveries, type SentEvent } from './scenarios/subscriptions';
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
    expect(parseOptions(['--quick', '--only', 'subscriptions']).only).toEqual(['subscriptions']);
    expect(() => parseOptions(['--only', 'projects,tags'])).toThrow(
      '--only wants some of projects, repository, backup, large-archive, webhooks, subscriptions, huge-keys',
    );
    expect(parseOptions(['--only', 'large-archive']).archiveMiB).toBe(1024);
    expect(parseOptions(['--quick', '--archive-mib', '256']).archiveMiB).toBe(256);
    expect(() => parseOptions(['--only'])).toThrow('--only wants');
  });

  it("pairs each subscription's messages with its project's updates, and counts what is missing or extra", () => {
    // Issues 11 and 12 are project 1's, 21 project 2's; each issue's k-th message is its k-th update.
    const projectOfIssue = new Map([
      [11, 1],
      [12, 1],
      [21, 2],
    ]);
    const events: SentEvent[] = [
      { seq: 0, issueId: 11, sentAt: 1000, returnedAt: 1010 },
      { seq: 1, issueId: 21, sentAt: 1010, returnedAt: 1020 },
      { seq: 2, issueId: 12, sentAt: 1020, returnedAt: 1030 },
      { seq: 3, issueId: 11, sentAt: 1030, returnedAt: 1040 },
    ];
    const collected = {
      // Project 1's subscriber: issue 12's update, then 11's two (the first read after the second
      // update: its title is newer, which is allowed), one arriving before its PUT returned.
      // Project 2's: its one update, then a repeat of it.
      arrivals: [Float64Array.from([1035, 1040, 1038]), Float64Array.from([1025, 1060])],
      // When each message's event entered the stream, from its cursor: issue 11's second update
      // and issue 21's entered it before their PUTs' answers were read.
      streamedAt: [Float64Array.from([1028, 1012, 1036]), Float64Array.from([1015, 1015])],
      issueIds: [Int32Array.from([12, 11, 11]), Int32Array.from([21, 21])],
      titles: [
        ['bench 2', 'bench 3', 'bench 3'],
        ['bench 1', 'bench 1'],
      ],
    };
    const paired = pairDeliveries(events, projectOfIssue, [1, 2], collected);
    expect(paired).toMatchObject({ expected: 4, received: 5, missing: 0, extra: 1, beforeReturn: 1, titlesBehind: 0 });
    expect(paired.fromReturn).toEqual([5, 30, 0, 5]);
    expect(paired.fromSend).toEqual([15, 40, 8, 15]);
    expect(paired.fromStream).toEqual([7, 28, 2, 10]);
    expect(paired.streamFromReturn).toEqual([-2, 2, -4, -5]);

    // A subscriber of project 1 that got only issue 11's first update, showing an older title.
    const short = pairDeliveries(events, projectOfIssue, [1], {
      arrivals: [Float64Array.from([1050])],
      streamedAt: [Float64Array.from([1045])],
      issueIds: [Int32Array.from([11])],
      titles: [['bench seed 0']],
    });
    expect(short).toMatchObject({ expected: 3, received: 1, missing: 2, extra: 0, titlesBehind: 1 });
  });

  it("reads the time an event entered its stream from a message's cursor", () => {
    expect(streamedAtOfCursor(Buffer.from('notes/1795813219567-12').toString('base64url'))).toBe(1795813219567);
  });

  it('escapes pipes in table cells', () => {
    expect(markdownTable(['a'], [['x | y']])).toBe('| a |\n| --- |\n| x \\| y |');
  });
});
