import { randomBytes } from 'node:crypto';
import { call, collect, failureKind, startHarness } from '../testing/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const bytesOf = (messages: Array<{ data?: Buffer; info?: unknown }>) =>
  Buffer.concat(messages.filter((m) => m.data).map((m) => m.data!));

describe('BlobService', () => {
  const binary = randomBytes(600 * 1024); // more than two messages of bytes
  let r: Awaited<ReturnType<typeof h.repo>>;
  beforeAll(async () => {
    r = await h.repo([
      { files: { 'README.md': '# hi\n', 'src/deep/nested/ünï cödé.txt': 'grüße\n', 'bin/data.bin': binary } },
    ]);
  });

  it("GetTreeEntries: the root and nested folders, folders first (GitLab's sorted_entries)", async () => {
    const root = await call(h.blob, 'GetTreeEntries', { repository: r.repository, ref: 'master', path: '' });
    expect(root.entries.map((e: { name: string; type: string; mode: string }) => [e.name, e.type, e.mode])).toEqual([
      ['bin', 'tree', '040000'],
      ['src', 'tree', '040000'],
      ['README.md', 'blob', '100644'],
    ]);
    const nested = await call(h.blob, 'GetTreeEntries', {
      repository: r.repository,
      ref: 'master',
      path: '/src/deep/nested/',
    });
    expect(nested.entries.map((e: { name: string }) => e.name)).toEqual(['ünï cödé.txt']);
  });

  it("GetTreeEntries: the tree object's id with the entries, and alone (id_only) without reading them", async () => {
    for (const path of ['', 'src', '/src/deep/']) {
      const id = r.git('rev-parse', `master:${path.replace(/^\/|\/$/g, '')}`);
      const full = await call(h.blob, 'GetTreeEntries', { repository: r.repository, ref: 'master', path });
      const alone = await call(h.blob, 'GetTreeEntries', {
        repository: r.repository,
        ref: 'master',
        path,
        idOnly: true,
      });
      expect([full.treeId, alone.treeId]).toEqual([id, id]);
      expect(full.entries.length).toBeGreaterThan(0);
      expect(alone.entries).toEqual([]);
    }
    const refused = (ref: string, path: string) =>
      failureKind(call(h.blob, 'GetTreeEntries', { repository: r.repository, ref, path, idOnly: true }));
    expect(await refused('master', 'nope')).toBe('PATH_NOT_FOUND');
    expect(await refused('master', 'README.md')).toBe('PATH_NOT_FOUND');
    expect(await refused('master', '../..')).toBe('INVALID_ARGUMENT');
    expect(await refused('nope', '')).toBe('REF_NOT_FOUND');
    expect(await refused('nope', 'src')).toBe('REF_NOT_FOUND');
  });

  it('GetTreeEntries: missing paths, files, escapes and bad refs are refused', async () => {
    expect(
      await failureKind(call(h.blob, 'GetTreeEntries', { repository: r.repository, ref: 'master', path: 'nope' })),
    ).toBe('PATH_NOT_FOUND');
    expect(
      await failureKind(call(h.blob, 'GetTreeEntries', { repository: r.repository, ref: 'master', path: 'README.md' })),
    ).toBe('PATH_NOT_FOUND');
    expect(
      await failureKind(call(h.blob, 'GetTreeEntries', { repository: r.repository, ref: 'master', path: '../..' })),
    ).toBe('INVALID_ARGUMENT');
    expect(await failureKind(call(h.blob, 'GetTreeEntries', { repository: r.repository, ref: 'nope', path: '' }))).toBe(
      'REF_NOT_FOUND',
    );
    expect(
      await failureKind(call(h.blob, 'GetTreeEntries', { repository: r.repository, ref: 'nope', path: 'src' })),
    ).toBe('REF_NOT_FOUND');
  });

  it('GetBlob: metadata first, then the bytes in chunks, for text and binary files', async () => {
    const text = await collect(h.blob, 'GetBlob', {
      repository: r.repository,
      ref: 'master',
      path: 'src/deep/nested/ünï cödé.txt',
    });
    expect(text[0].info).toMatchObject({ size: Buffer.byteLength('grüße\n'), text: true });
    expect(bytesOf(text).toString('utf8')).toBe('grüße\n');
    const bin = await collect(h.blob, 'GetBlob', { repository: r.repository, ref: 'master', path: 'bin/data.bin' });
    expect(bin[0].info).toMatchObject({ size: binary.length, text: false });
    expect(bin.length).toBeGreaterThan(3);
    expect(bytesOf(bin).equals(binary)).toBe(true);
  });

  it('GetBlob: parallel streams of a large file each arrive whole (every call encodes into one shared scratch buffer)', async () => {
    const streams = await Promise.all(
      Array.from({ length: 6 }, () =>
        collect(h.blob, 'GetBlob', { repository: r.repository, ref: 'master', path: 'bin/data.bin' }),
      ),
    );
    for (const messages of streams) expect(bytesOf(messages).equals(binary)).toBe(true);
  });

  it('GetBlob: missing files and hostile paths', async () => {
    expect(
      await failureKind(collect(h.blob, 'GetBlob', { repository: r.repository, ref: 'master', path: 'missing.txt' })),
    ).toBe('PATH_NOT_FOUND');
    expect(
      await failureKind(
        collect(h.blob, 'GetBlob', { repository: r.repository, ref: 'master', path: '../../etc/passwd' }),
      ),
    ).toBe('INVALID_ARGUMENT');
    expect(
      await failureKind(
        collect(h.blob, 'GetBlob', { repository: r.repository, ref: '--output=/tmp/x', path: 'README.md' }),
      ),
    ).toBe('INVALID_ARGUMENT');
  });

  it('GetBlob: a blob larger than the warm reader takes streams from its own process', async () => {
    const large = randomBytes(1536 * 1024);
    const big = await h.repo([{ files: { 'large.bin': large } }]);
    const messages = await collect(h.blob, 'GetBlob', { repository: big.repository, ref: 'master', path: 'large.bin' });
    expect(messages[0].info).toMatchObject({ size: large.length, text: false });
    expect(bytesOf(messages).equals(large)).toBe(true);
  });

  it('the warm reader sees what a later push brought', async () => {
    const fresh = await h.repo([{ files: { 'f.txt': 'one\n' } }]);
    const read = async () =>
      bytesOf(
        await collect(h.blob, 'GetBlob', { repository: fresh.repository, ref: 'master', path: 'f.txt' }),
      ).toString();
    expect(await read()).toBe('one\n');
    require('node:fs').writeFileSync(require('node:path').join(fresh.work, 'f.txt'), 'two\n');
    fresh.git('commit', '--quiet', '-am', 'two');
    fresh.git('push', '--quiet', 'origin', 'HEAD');
    expect(await read()).toBe('two\n');
    const { entries } = await call(h.blob, 'GetTreeEntries', { repository: fresh.repository, ref: 'master', path: '' });
    expect(entries.map((e: { name: string }) => e.name)).toEqual(['f.txt']);
  });
});
