import type { ClientReadableStream } from '@grpc/grpc-js';
import { DomainError, type Logger } from '@hub/common';
import { gitDomainError, isCancelled, type GitShards, type NotFoundNouns } from '@hub/protos';
import type { NextFunction, Request, Response, Router } from 'express';
import express from 'express';
import { credentialHeaders, presentsCredentials } from '../credentials';
import type { GatewayClient } from '../gateway-client';
import { RepositoryDownloadDocument } from '../generated/operations';
import { Params } from '../params';
import { fromGraphQLError, UNAUTHORIZED, v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectKey } from './project-key';

const ARCHIVE_TYPES: Record<string, string> = {
  'tar.gz': 'application/x-gzip',
  'tar.bz2': 'application/x-bzip2',
  tar: 'application/x-tar',
  zip: 'application/zip',
};

/**
 * A worker failure before any byte was sent, as the v3 error it means (the one kind → error map);
 * `fields` renames the worker's field names to the route's parameter names.
 */
function downloadError(error: unknown, nouns: NotFoundNouns, fields: Record<string, string> = {}) {
  const mapped = gitDomainError(error, nouns);
  if (!(mapped instanceof DomainError)) return mapped;
  const invalid = mapped.extensions.fields as Record<string, string[]> | undefined;
  if (invalid) mapped.extensions.fields = Object.fromEntries(Object.entries(invalid).map(([field, messages]) => [fields[field] ?? field, messages]));
  return fromGraphQLError(mapped);
}

/**
 * Streams a worker stream to the client: `onFirst` sees the first message and sets the headers,
 * later messages are written with backpressure. An error before the first byte is a v3 error.
 */
function relay<T>(
  stream: ClientReadableStream<T>,
  res: Response,
  next: NextFunction,
  nouns: NotFoundNouns,
  onFirst: (message: T) => Buffer | null,
  dataOf: (message: T) => Buffer | null,
  options: { fields?: Record<string, string>; onEnd?: () => Buffer | null } = {},
) {
  let started = false;
  res.on('close', () => stream.cancel());
  stream.on('data', (message: T) => {
    const data = started ? dataOf(message) : onFirst(message);
    started = true;
    if (data && data.length && !res.write(data)) {
      stream.pause();
      res.once('drain', () => stream.resume());
    }
  });
  stream.on('error', (error) => {
    if (isCancelled(error)) return; // the client left
    if (!started) next(downloadError(error, nouns, options.fields));
    else res.destroy();
  });
  // The response ends when the data has ended and the call's status is OK, never on 'end'
  // alone: grpc-js ends the stream before it emits a failed call's error, and a response ended
  // then was an empty 200 (an archive of `refs/../..`, found by the fuzz) with the error's own
  // answer thrown after it.
  let ended = false;
  let ok = false;
  const finish = () => {
    if (ended && ok && !res.writableEnded) res.end(started ? (options.onEnd?.() ?? undefined) : undefined);
  };
  stream.on('end', () => {
    ended = true;
    finish();
  });
  stream.on('status', (status: { code: number }) => {
    ok = status.code === 0;
    finish();
  });
}

/**
 * Raw files and archives: the gateway authorizes (the project's repository must be readable, one
 * fetch to projects) and names the project and its shard; the bytes then stream from that shard's
 * git worker to the client in chunks.
 */
export function createDownloadRoutes(deps: { gateway: GatewayClient; git: GitShards; logger: Logger }): Router {
  const router = express.Router();

  const authorizeDownload = async (req: Request) => {
    const headers = credentialHeaders(req);
    if (!presentsCredentials(headers)) throw UNAUTHORIZED();
    const p = new Params(req.query, {}, req.params as Record<string, string>);
    const { project } = await deps.gateway.forRequest(headers, req.socket.remoteAddress ?? 'unknown')(RepositoryDownloadDocument, projectKey(p));
    if (!project) throw PROJECT_NOT_FOUND();
    // The answer Project.repository's authorization gives: the project is visible, its code is not.
    if (!project.canDownloadCode) throw v3Error(403, '403 Forbidden');
    return { p, project, git: deps.git.on(project.repositoryStorage) };
  };

  const blob = (pathOf: (p: Params) => { ref: string; path: string } | null, raw: boolean) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { p, project, git } = await authorizeDownload(req);
      const repository = { projectId: project.id };
      let stream;
      if (raw) {
        stream = git.blob.GetRawBlob({ repository, oid: p.string('sha')! });
      } else {
        const target = pathOf(p)!;
        stream = git.blob.GetBlob({ repository, ref: target.ref, path: target.path });
      }
      relay(
        stream,
        res,
        next,
        raw ? { OBJECT_NOT_FOUND: 'Blob' } : { REF_NOT_FOUND: 'Commit', PATH_NOT_FOUND: 'File' },
        (first) => {
          const info = first.info!;
          // Text as text; anything else as bytes, never with a charset.
          res.status(200).setHeader('Content-Type', info.text ? 'text/plain; charset=utf-8' : 'application/octet-stream');
          res.setHeader('Content-Length', String(info.size));
          res.setHeader('X-Content-Type-Options', 'nosniff');
          return null;
        },
        (message) => message.data ?? null,
      );
    } catch (error) {
      next(error);
    }
  };

  const filepath = (p: Params) => {
    p.require('filepath');
    return { ref: p.string('sha')!, path: p.string('filepath')! };
  };
  router.get('/projects/:id/repository/blobs/:sha', blob(filepath, false));
  // Later v3 servers' other way to a file at a commit, which existing clients use.
  router.get('/projects/:id/repository/commits/:sha/blob', blob(filepath, false));
  router.get('/projects/:id/repository/raw_blobs/:sha', blob(() => null, true));

  /**
   * GitLab 7.14's GET repository/files: the file's metadata with its content in base64, inside
   * JSON. The JSON is written around the bytes as they stream, base64-encoding them on the way
   * (three bytes to four characters, a remainder of up to two bytes carried to the next chunk), so
   * a large file never sits whole in memory.
   */
  router.get('/projects/:id/repository/files', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { p, project, git } = await authorizeDownload(req);
      p.require('file_path', 'ref');
      const ref = p.string('ref')!;
      const path = p.string('file_path')!;
      const stream = git.blob.GetBlob({ repository: { projectId: project.id }, ref, path });
      let carry = Buffer.alloc(0);
      let tail = '';
      const encode = (data: Buffer) => {
        const bytes = Buffer.concat([carry, data]);
        const whole = bytes.length - (bytes.length % 3);
        carry = bytes.subarray(whole);
        return Buffer.from(bytes.subarray(0, whole).toString('base64'));
      };
      relay(
        stream,
        res,
        next,
        { REF_NOT_FOUND: 'Commit', PATH_NOT_FOUND: 'File' },
        (first) => {
          const info = first.info!;
          res.status(200).type('application/json');
          const name = path.split('/').filter(Boolean).at(-1) ?? path;
          const head = JSON.stringify({ file_name: name, file_path: path, size: Number(info.size), encoding: 'base64' });
          // Everything after the content is known now too; it is written when the bytes end.
          tail = `","ref":${JSON.stringify(ref)},"blob_id":${JSON.stringify(info.oid)},"commit_id":${JSON.stringify(info.commitId)}}`;
          return Buffer.from(`${head.slice(0, -1)},"content":"`);
        },
        (message) => (message.data ? encode(message.data) : null),
        { fields: { filepath: 'file_path', sha: 'ref' }, onEnd: () => Buffer.concat([Buffer.from(carry.toString('base64')), Buffer.from(tail)]) },
      );
    } catch (error) {
      next(error);
    }
  });

  const archive = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { p, project, git } = await authorizeDownload(req);
      const format = (req.params as Record<string, string>).format ?? 'tar.gz';
      const type = ARCHIVE_TYPES[format];
      if (!type) throw v3Error(404, '404 Not Found');
      const sha = p.string('sha');
      const name = `${project.path}-${sha ?? project.defaultBranch}`.replace(/[^A-Za-z0-9._-]/g, '-');
      // The default branch by its full name: a tag of the same name must not stand in for it.
      const ref = sha ?? `refs/heads/${project.defaultBranch}`;
      const stream = git.repository.GetArchive({ repository: { projectId: project.id }, ref, format, prefix: name });
      relay(
        stream,
        res,
        next,
        // GitLab 7.14's archive route answered any failure to build the archive with not_found!('File').
        { REF_NOT_FOUND: 'File' },
        (first) => {
          res.status(200).setHeader('Content-Type', type);
          res.setHeader('Content-Disposition', `attachment; filename="${name}.${format}"`);
          return first.data ?? null;
        },
        (message) => message.data ?? null,
      );
    } catch (error) {
      next(error);
    }
  };
  router.get('/projects/:id/repository/archive', archive);
  router.get(/^\/projects\/([^/]+)\/repository\/archive\.(tar\.gz|tar\.bz2|tar|zip)$/, (req, res, next) => {
    const [id, format] = [req.params[0], req.params[1]];
    (req as unknown as { params: Record<string, string> }).params = { id, format };
    return archive(req, res, next);
  });
  return router;
}
