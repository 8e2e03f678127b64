import {
  BLOB_HEADERS,
  DOWNLOAD_PURPOSE,
  downloadClaims,
  GIT_ACCESS_HEADER,
  verifyClaims,
  type Logger,
} from '@hub/common';
import { encodeErrorDetail, GIT_ERROR_HEADER } from '@hub/protos';
import type { Request, Response } from 'express';
import { GitError } from '../git/errors';
import { spawnGit, type GitProcess, type StartGit } from '../git/run';
import type { WorkerDeps } from '../rpc';
import { blobBytes, isText } from '../blob/blob-bytes';
import { findBlobAtPath, findRawBlob, type FoundBlob } from '../blob/find-blob';
import { archiveCommand } from '../repository/archive-command';

type Deps = Pick<WorkerDeps, 'root' | 'readers' | 'startGit'> & { secret: string; logger: Logger };

/** What a failure of each kind answers over HTTP; the kind itself travels in GIT_ERROR_HEADER. */
const statusOf = (error: GitError) =>
  error.kind === 'INVALID_ARGUMENT'
    ? 400
    : error.kind.endsWith('NOT_FOUND') || error.kind === 'EMPTY_REPOSITORY'
      ? 404
      : 409;

/**
 * Pipes a git process's stdout into the answer, pausing git while the client is slow, so an
 * archive or blob of any size never sits in memory; stops git if the client goes away. `head`
 * writes the headers on the first chunk (or at the end, for empty output). Resolves when git
 * exits 0.
 */
async function pipeToResponse(git: GitProcess, res: Response, head: (first: Buffer | null) => void): Promise<void> {
  res.on('close', () => git.kill('SIGKILL'));
  let stderr = '';
  git.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4096) stderr += d.toString('utf8');
  });
  git.stdout.on('data', (data: Buffer) => {
    if (!res.headersSent) head(data);
    if (!res.write(data)) {
      git.stdout.pause();
      res.once('drain', () => git.stdout.resume());
    }
  });
  await new Promise<void>((resolve, reject) => {
    git.on('error', reject);
    git.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`git exited with ${code}: ${stderr.trim()}`)),
    );
  });
  if (!res.headersSent) head(null);
  res.end();
}

/** Writes the blob: headers saying what it is, then its bytes. */
async function sendBlob(found: FoundBlob, res: Response, start: StartGit): Promise<void> {
  const { info, commitId } = found;
  const head = (text: boolean) =>
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(info.size),
      [BLOB_HEADERS.oid]: info.oid,
      [BLOB_HEADERS.text]: text ? '1' : '0',
      [BLOB_HEADERS.commitId]: commitId,
    });
  const bytes = await blobBytes(found, start);
  if ('parts' in bytes) {
    // At most the warm reader's limit, already in memory: written at once, without a copy into one buffer.
    head(bytes.text);
    res.cork();
    for (const part of bytes.parts) res.write(part);
    res.end();
    return;
  }
  await pipeToResponse(bytes.process, res, (first) => head(first === null || isText(first)));
}

/**
 * The facade's downloads, which it has authorized and signed claims for (DOWNLOAD_PURPOSE):
 * - GET /blobs/<projectId>?oid=<sha> (raw_blobs) or ?ref=<ref>&path=<path> (a file at a commit);
 * - GET /archives/<projectId>?ref=<ref>&format=<tar.gz|tar|zip|tar.bz2>&prefix=<folder>.
 * The same lookups and checks as the gRPC calls; a failure before the first byte answers its kind
 * in GIT_ERROR_HEADER (the ErrorDetail the gRPC calls send as a trailer).
 */
export function createDownloadHandlers(deps: Deps) {
  const serve =
    (send: (projectId: number, query: (name: string) => string, res: Response) => Promise<void>) =>
    async (req: Request, res: Response) => {
      const projectId = Number(req.params.projectId);
      const claims = downloadClaims.safeParse(
        verifyClaims(req.header(GIT_ACCESS_HEADER), deps.secret, Date.now(), DOWNLOAD_PURPOSE),
      ).data;
      if (!claims || claims.projectId !== projectId) {
        res.status(403).type('text/plain').send('Forbidden\n');
        return;
      }
      const params = req.query as Record<string, unknown>;
      const query = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : '');
      try {
        await send(projectId, query, res);
      } catch (error) {
        if (res.headersSent) {
          deps.logger.warn({ err: error, projectId, path: req.path }, 'download failed after its first bytes');
          res.destroy();
        } else if (error instanceof GitError) {
          res
            .status(statusOf(error))
            .setHeader(
              GIT_ERROR_HEADER,
              encodeErrorDetail({ kind: error.kind, message: error.message, field: error.field }).toString('base64'),
            );
          res.type('text/plain').send(`${error.message}\n`);
        } else {
          deps.logger.error({ err: error, projectId, path: req.path }, 'download failed');
          res.status(500).type('text/plain').send('Internal Server Error\n');
        }
      }
    };
  return {
    blob: serve(async (projectId, query, res) => {
      const found = query('oid')
        ? await findRawBlob(deps, projectId, query('oid'))
        : await findBlobAtPath(deps, projectId, query('ref'), query('path'));
      await sendBlob(found, res, deps.startGit);
    }),
    archive: serve(async (projectId, query, res) => {
      const { repo, args } = await archiveCommand(deps, projectId, {
        ref: query('ref'),
        format: query('format'),
        prefix: query('prefix'),
      });
      await pipeToResponse(spawnGit(repo, args, {}, { start: deps.startGit }), res, () =>
        res.writeHead(200, { 'content-type': 'application/octet-stream' }),
      );
    }),
  };
}
