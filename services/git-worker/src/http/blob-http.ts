import { BLOB_HEADERS, BLOB_READ_PURPOSE, blobReadClaims, GIT_ACCESS_HEADER, verifyClaims, type Logger } from '@hub/common';
import { encodeErrorDetail, GIT_ERROR_HEADER } from '@hub/protos';
import type { Request, Response } from 'express';
import { GitError } from '../git/errors';
import type { WorkerDeps } from '../rpc';
import { blobBytes, isText } from '../blob/blob-bytes';
import { findBlobAtPath, findRawBlob, type FoundBlob } from '../blob/find-blob';

/** What a failure of each kind answers over HTTP; the kind itself travels in GIT_ERROR_HEADER. */
const statusOf = (error: GitError) => (error.kind === 'INVALID_ARGUMENT' ? 400 : error.kind.endsWith('NOT_FOUND') || error.kind === 'EMPTY_REPOSITORY' ? 404 : 409);

/** Writes the blob: headers saying what it is, then its bytes, pausing git while the client is slow. */
async function sendBlob(found: FoundBlob, res: Response): Promise<void> {
  const { info, commitId } = found;
  const head = (text: boolean) =>
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(info.size),
      [BLOB_HEADERS.oid]: info.oid,
      [BLOB_HEADERS.text]: text ? '1' : '0',
      [BLOB_HEADERS.commitId]: commitId,
    });
  const bytes = await blobBytes(found);
  if ('parts' in bytes) {
    // At most READER_LIMIT, already in memory: written at once, without a copy into one buffer.
    head(bytes.text);
    res.cork();
    for (const part of bytes.parts) res.write(part);
    res.end();
    return;
  }
  const git = bytes.process;
  res.on('close', () => git.kill('SIGKILL'));
  let stderr = '';
  git.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4096) stderr += d.toString('utf8');
  });
  git.stdout.on('data', (data: Buffer) => {
    if (!res.headersSent) head(isText(data));
    if (!res.write(data)) {
      git.stdout.pause();
      res.once('drain', () => git.stdout.resume());
    }
  });
  await new Promise<void>((resolve, reject) => {
    git.on('error', reject);
    git.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git exited with ${code}: ${stderr.trim()}`))));
  });
  if (!res.headersSent) head(true); // an empty blob
  res.end();
}

/**
 * GET /blobs/<projectId>?oid=<sha> (raw_blobs) or ?ref=<ref>&path=<path> (a file at a commit): the
 * facade's blob downloads, which it has authorized and signed claims for (BLOB_READ_PURPOSE). The
 * same lookups as the gRPC GetRawBlob and GetBlob; a failure answers its kind in GIT_ERROR_HEADER.
 */
export function createBlobHttpHandler(deps: Pick<WorkerDeps, 'root' | 'readers'> & { secret: string; logger: Logger }) {
  return async (req: Request, res: Response) => {
    const projectId = Number(req.params.projectId);
    const claims = blobReadClaims.safeParse(verifyClaims(req.header(GIT_ACCESS_HEADER), deps.secret, Date.now(), BLOB_READ_PURPOSE)).data;
    if (!claims || claims.projectId !== projectId) {
      res.status(403).type('text/plain').send('Forbidden\n');
      return;
    }
    const query = req.query as Record<string, unknown>;
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
    try {
      const found = typeof query.oid === 'string' ? await findRawBlob(deps, projectId, text('oid')) : await findBlobAtPath(deps, projectId, text('ref'), text('path'));
      await sendBlob(found, res);
    } catch (error) {
      if (res.headersSent) {
        deps.logger.warn({ err: error, projectId }, 'blob download failed after its first bytes');
        res.destroy();
      } else if (error instanceof GitError) {
        res.status(statusOf(error)).setHeader(GIT_ERROR_HEADER, encodeErrorDetail({ kind: error.kind, message: error.message, field: error.field }).toString('base64'));
        res.type('text/plain').send(`${error.message}\n`);
      } else {
        deps.logger.error({ err: error, projectId }, 'blob download failed');
        res.status(500).type('text/plain').send('Internal Server Error\n');
      }
    }
  };
}
