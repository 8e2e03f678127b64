import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { BLOB_HEADERS, DOWNLOAD_PURPOSE, createLogger, GIT_ACCESS_HEADER, signClaims } from '@hub/common';
import { gitFailureOf, gitErrorFromHttp, GIT_ERROR_HEADER } from '@hub/protos';
import { startHarness } from '../testing/harness';
import { createDownloadHandlers } from './downloads-http';

const secret = 'blob-test-secret';
let h: Awaited<ReturnType<typeof startHarness>>;
let server: Server;
let base: string;
let r: Awaited<ReturnType<typeof h.repo>>;
const binary = randomBytes(600 * 1024);
const large = randomBytes(1536 * 1024); // past the warm reader: its own cat-file process

beforeAll(async () => {
  h = await startHarness();
  const app = express();
  const downloads = createDownloadHandlers({
    ...h.deps,
    secret,
    logger: createLogger('downloads-http-test', 'silent'),
  });
  app.get('/blobs/:projectId', downloads.blob);
  app.get('/archives/:projectId', downloads.archive);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r = await h.repo([{ files: { 'README.md': '# hi\n', 'bin/data.bin': binary, 'large.bin': large, 'empty.txt': '' } }]);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.stop();
});

const claimsFor = (projectId: number, purpose = DOWNLOAD_PURPOSE) =>
  signClaims({ projectId }, secret, Date.now(), purpose);
const get = async (
  query: Record<string, string>,
  claims = claimsFor(r.projectId),
  projectId = r.projectId,
  what = 'blobs',
) => {
  const res = await fetch(`${base}/${what}/${projectId}?${new URLSearchParams(query)}`, {
    headers: { [GIT_ACCESS_HEADER]: claims },
  });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
};
const kindOf = (res: Response) =>
  gitFailureOf(gitErrorFromHttp(res.headers.get(GIT_ERROR_HEADER) ?? undefined, res.status))?.kind;

describe('GET /blobs/:projectId (blob bytes over HTTP)', () => {
  it('sends a file at a ref: its bytes, size, id, commit and whether it is text', async () => {
    const { res, body } = await get({ ref: 'master', path: 'README.md' });
    expect(res.status).toBe(200);
    expect(body.toString()).toBe('# hi\n');
    expect(res.headers.get('content-length')).toBe('5');
    expect(res.headers.get(BLOB_HEADERS.text)).toBe('1');
    expect(res.headers.get(BLOB_HEADERS.commitId)).toMatch(/^[0-9a-f]{40}$/);
    const bin = await get({ ref: 'master', path: 'bin/data.bin' });
    expect(bin.res.headers.get(BLOB_HEADERS.text)).toBe('0');
    expect(bin.body.equals(binary)).toBe(true);
  });

  it('sends a blob by its id, a large one streamed from its own git, and an empty one', async () => {
    const oid = (await get({ ref: 'master', path: 'large.bin' })).res.headers.get(BLOB_HEADERS.oid)!;
    const { res, body } = await get({ oid });
    expect(res.status).toBe(200);
    expect(res.headers.get(BLOB_HEADERS.text)).toBe('0');
    expect(Number(res.headers.get('content-length'))).toBe(large.length);
    expect(body.equals(large)).toBe(true);
    const empty = await get({ ref: 'master', path: 'empty.txt' });
    expect([empty.res.status, empty.body.length, empty.res.headers.get(BLOB_HEADERS.text)]).toEqual([200, 0, '1']);
  });

  it('answers failures with their kind, as the gRPC calls do (a tree is no blob)', async () => {
    const treeId = (await h.deps.readers.get(r.bare).info('master:bin'))!.oid;
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ oid: '0'.repeat(40) }, 404, 'OBJECT_NOT_FOUND'],
      [{ oid: 'HEAD' }, 400, 'INVALID_ARGUMENT'],
      [{ oid: treeId }, 404, 'OBJECT_NOT_FOUND'],
      [{ ref: 'nope', path: 'README.md' }, 404, 'REF_NOT_FOUND'],
      [{ ref: 'master', path: 'nope.txt' }, 404, 'PATH_NOT_FOUND'],
      [{ ref: 'master', path: 'bin' }, 404, 'PATH_NOT_FOUND'],
      [{ ref: 'master', path: '../../etc/passwd' }, 400, 'INVALID_ARGUMENT'],
      [{ ref: '--output=x', path: 'README.md' }, 400, 'INVALID_ARGUMENT'],
      [{ ref: 'master', path: '' }, 400, 'INVALID_ARGUMENT'],
    ];
    for (const [query, status, kind] of cases) {
      const { res } = await get(query);
      expect([query, res.status, kindOf(res)]).toEqual([query, status, kind]);
    }
    const absent = await get({ oid: '0'.repeat(40) }, claimsFor(999_999), 999_999);
    expect([absent.res.status, kindOf(absent.res)]).toEqual([404, 'REPOSITORY_NOT_FOUND']);
  });

  it('serves only the facade’s blob-read claims for this very project', async () => {
    const refused = [
      await get({ ref: 'master', path: 'README.md' }, ''),
      await get({ ref: 'master', path: 'README.md' }, claimsFor(r.projectId + 1)),
      // A clone's or push's claims (another purpose) open no blob read.
      await get({ ref: 'master', path: 'README.md' }, claimsFor(r.projectId, '')),
      await get(
        { ref: 'master', path: 'README.md' },
        signClaims({ projectId: r.projectId }, 'another-secret', Date.now(), DOWNLOAD_PURPOSE),
      ),
    ];
    expect(refused.map(({ res, body }) => [res.status, body.toString()])).toEqual(
      refused.map(() => [403, 'Forbidden\n']),
    );
  });
});

describe('GET /archives/:projectId (archives over HTTP)', () => {
  it('streams each format of the tree at a ref, under the prefix', async () => {
    const checks: Array<[string, (b: Buffer) => boolean]> = [
      ['tar.gz', (b) => b[0] === 0x1f && b[1] === 0x8b],
      ['zip', (b) => b.subarray(0, 2).toString() === 'PK'],
      ['tar.bz2', (b) => b.subarray(0, 3).toString() === 'BZh'],
      ['tar', (b) => b.subarray(257, 262).toString() === 'ustar' && b.includes('proj-master/README.md')],
    ];
    for (const [format, check] of checks) {
      const { res, body } = await get(
        { ref: 'master', format, prefix: 'proj-master' },
        undefined,
        undefined,
        'archives',
      );
      expect([format, res.status, check(body)]).toEqual([format, 200, true]);
    }
    // The whole tree, the large file included (streamed by git, not read whole).
    const tar = await get({ ref: 'master', format: 'tar', prefix: 'p' }, undefined, undefined, 'archives');
    expect(tar.body.length).toBeGreaterThan(large.length + binary.length);
  });

  it('answers a bad format, a hostile or unknown ref with their kinds, and refuses other claims', async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ ref: 'master', format: 'rar', prefix: 'p' }, 400, 'INVALID_ARGUMENT'],
      [{ ref: '--output=/tmp/x', format: 'tar', prefix: 'p' }, 400, 'INVALID_ARGUMENT'],
      [{ ref: '--remote=x', format: 'tar', prefix: 'p' }, 400, 'INVALID_ARGUMENT'],
      [{ ref: 'nope', format: 'tar', prefix: 'p' }, 404, 'REF_NOT_FOUND'],
    ];
    for (const [query, status, kind] of cases) {
      const { res } = await get(query, undefined, undefined, 'archives');
      expect([query, res.status, kindOf(res)]).toEqual([query, status, kind]);
    }
    const refused = await get(
      { ref: 'master', format: 'tar', prefix: 'p' },
      claimsFor(r.projectId, ''),
      undefined,
      'archives',
    );
    expect(refused.res.status).toBe(403);
  });
});
