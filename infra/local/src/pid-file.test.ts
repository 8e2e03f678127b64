import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPidFile } from './pid-file';

describe('readPidFile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pid-file-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const withText = (text: string) => {
    const file = join(dir, `pid-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, text);
    return readPidFile(file);
  };

  it('reads the first line of a written pid file (Redis writes "pid\\n", Postgres more lines after it)', () => {
    expect(withText('4242\n')).toBe(4242);
    expect(withText('31337\n/var/lib/postgresql/data\n1700000000\n5432\n')).toBe(31337);
  });

  it('never answers 0 or another pid that would signal a process group: a file created but not yet written is no pid', () => {
    for (const text of ['', '\n', '0', '0\n', '-1', '-4242\n', ' ', '12abc', '1e3', '0x10', '99999999999999999999']) {
      expect(withText(text)).toBeNull();
    }
    expect(readPidFile(join(dir, 'missing.pid'))).toBeNull();
  });
});
