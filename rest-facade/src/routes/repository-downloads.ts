import type { ClientReadableStream } from '@grpc/grpc-js';
import { pipeline } from 'node:stream/promises';
import {
  BLOB_HEADERS,
  clientAddress,
  requestIdHeaders,
  DOWNLOAD_PURPOSE,
  DomainError,
  ErrorCode,
  GIT_ACCESS_HEADER,
  signClaims,
  type DownloadClaims,
  type Logger,
} from '@hub/common';
import {
  gitDomainError,
  gitErrorFromHttp,
  GIT_ERROR_HEADER,
  isCancelled,
  type GitClients,
  type GitShards,
  type NotFoundNouns,
} from '@hub/protos';
import type { NextFunction, Request, Response, Router } from 'express';
import express from 'express';
import type { Dispatcher } from 'undici';
import { credentialHeaders, presentsCredentials } from '../credentials';
import type { GatewayClient } from '../gateway-client';
import { RepositoryDownloadDocument } from '../generated/operations';
import { objectOf } from '../openapi/json-schema';
import { oneOf, required, str } from '../param-docs';
import { Params } from '../params';
import type { RouteDoc } from '../route';
import { fromGraphQLError, UNAUTHORIZED, v3Error } from '../v3-errors';
import { PROJECT_NOT_FOUND, projectKey } from './project-key';
import { logWorkerRefusal, WORKER_REFUSED, type WorkerPools } from '../worker-http';

const ARCHIVE_TYPES: Record<string, string> = {
  'tar.gz': 'application/x-gzip',
  'tar.bz2': 'application/x-bzip2',
  tar: 'application/x-tar',
  zip: 'application/zip',
};

/** Text as text; any other blob as bytes, never with a charset. */
const BLOB_TYPES = ['text/plain; charset=utf-8', 'application/octet-stream'];

/** What these routes serve, for the OpenAPI description; the router below serves these paths. */
const BLOB: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/blobs/:sha',
  summary: "A file's bytes at a commit, branch or tag",
  params: { filepath: required(str('The file, from the root of the tree.')) },
  contentTypes: BLOB_TYPES,
};
const COMMIT_BLOB: RouteDoc = { ...BLOB, path: '/projects/:id/repository/commits/:sha/blob' };
const RAW_BLOB: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/raw_blobs/:sha',
  summary: "A blob's bytes, by its sha",
  contentTypes: BLOB_TYPES,
};
const FILE: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/files',
  summary: 'A file at a commit, branch or tag: its metadata, and its content in base64',
  untagged: true,
  params: { file_path: required(str()), ref: required(str('A branch, tag or commit.')) },
  response: () =>
    objectOf({
      file_name: { type: 'string' },
      file_path: { type: 'string' },
      size: { type: 'integer' },
      encoding: { const: 'base64' },
      content: { type: 'string', contentEncoding: 'base64' },
      ref: { type: 'string' },
      blob_id: { type: 'string' },
      commit_id: { type: 'string' },
    }),
};
const ARCHIVE: RouteDoc = {
  method: 'get',
  path: '/projects/:id/repository/archive',
  summary: 'An archive (tar.gz) of the repository at a commit',
  params: { sha: str('A commit, branch or tag: the tip of the default branch by default.') },
  contentTypes: [ARCHIVE_TYPES['tar.gz']],
};
const FORMATTED_ARCHIVE: RouteDoc = {
  ...ARCHIVE,
  path: '/projects/:id/repository/archive.:format',
  summary: 'An archive of the repository at a commit, in the format the path names',
  params: { ...ARCHIVE.params, format: oneOf(Object.keys(ARCHIVE_TYPES)) },
  contentTypes: [...new Set(Object.values(ARCHIVE_TYPES))],
};

export const downloadRoutes: RouteDoc[] = [BLOB, COMMIT_BLOB, RAW_BLOB, FILE, ARCHIVE, FORMATTED_ARCHIVE];

const WORKER_UNAVAILABLE = () =>
  fromGraphQLError(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable'));

/**
 * A worker failure before any byte was sent, as the v3 error it means (the one kind → error map);
 * `fields` renames the worker's field names to the route's parameter names.
 */
function downloadError(error: unknown, nouns: NotFoundNouns, fields: Record<string, string> = {}) {
  const mapped = gitDomainError(error, nouns);
  if (!(mapped instanceof DomainError)) return mapped;
  const invalid = mapped.extensions.fields as Record<string, string[]> | undefined;
  if (invalid)
    mapped.extensions.fields = Object.fromEntries(
      Object.entries(invalid).map(([field, messages]) => [fields[field] ?? field, messages]),
    );
  return fromGraphQLError(mapped);
}

/**
 * A worker stream whose failure and status are recorded from the moment it is opened: a stream
 * opened before the authorization answers may end (or fail) before anything relays it, and an
 * 'error' with no listener would throw.
 */
interface Watched<T> {
  stream: ClientReadableStream<T>;
  onError(listener: (error: Error) => void): void;
  onStatus(listener: (status: { code: number }) => void): void;
}

function watch<T>(stream: ClientReadableStream<T>): Watched<T> {
  let error: Error | null = null;
  let status: { code: number } | null = null;
  const errorListeners: Array<(error: Error) => void> = [];
  const statusListeners: Array<(status: { code: number }) => void> = [];
  stream.on('error', (e: Error) => {
    error = e;
    errorListeners.forEach((listener) => listener(e));
  });
  stream.on('status', (s: { code: number }) => {
    status = s;
    statusListeners.forEach((listener) => listener(s));
  });
  return {
    stream,
    onError: (listener) => (error ? listener(error) : errorListeners.push(listener)),
    onStatus: (listener) => (status ? listener(status) : statusListeners.push(listener)),
  };
}

/**
 * Streams a worker stream to the client: `onFirst` sees the first message and sets the headers,
 * later messages are written with backpressure. An error before the first byte is a v3 error.
 */
function relay<T>(
  { stream, onError, onStatus }: Watched<T>,
  req: Request,
  res: Response,
  next: NextFunction,
  nouns: NotFoundNouns,
  onFirst: (message: T) => Buffer | null,
  dataOf: (message: T) => Buffer | null,
  options: { fields?: Record<string, string>; onEnd?: () => Buffer | null } = {},
) {
  // A client gone while the call was being authorized and opened has no 'close' left to come.
  if (req.socket.destroyed) return stream.cancel();
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
  onError((error) => {
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
  onStatus((status) => {
    ok = status.code === 0;
    finish();
  });
}

/** Opens the worker stream of a download on a shard's clients. */
type Opener<T> = (git: GitClients, projectId: number) => ClientReadableStream<T>;

/**
 * Raw files and archives: the gateway authorizes (the project's repository must be readable, one
 * fetch to projects) and names the project and its shard; the bytes then stream from that shard's
 * git worker to the client: blobs and archives over the worker's HTTP port, the base64 files API
 * over a gRPC stream (GetBlob).
 */
export function createDownloadRoutes(deps: {
  gateway: GatewayClient;
  git: GitShards;
  workers: WorkerPools;
  secret: string;
  logger: Logger;
}): Router {
  const router = express.Router();

  const authorize = async (
    req: Request,
    headers: ReturnType<typeof credentialHeaders>,
    key: ReturnType<typeof projectKey>,
  ) => {
    const { project } = await deps.gateway.forRequest(headers, clientAddress(req))(RepositoryDownloadDocument, key);
    if (!project) throw PROJECT_NOT_FOUND();
    // The answer Project.repository's authorization gives: the project is visible, its code is not.
    if (!project.canDownloadCode) throw v3Error(403, '403 Forbidden');
    deps.git.remember(project.id, project.repositoryStorage);
    return project;
  };

  const credentialsOf = (req: Request) => {
    const headers = credentialHeaders(req);
    if (!presentsCredentials(headers)) throw UNAUTHORIZED();
    return headers;
  };

  const authorizeDownload = async (req: Request) => {
    const headers = credentialsOf(req);
    const p = new Params(req.query, {}, req.params as Record<string, string>);
    const project = await authorize(req, headers, projectKey(p));
    return { p, project };
  };

  /**
   * A download whose bytes the request names by itself (`target`: a sha, or a ref and a path; a
   * throw when it cannot, as its 400 must come after the authorization's 404). When the project
   * is named by id and its shard is known, the worker is asked (`start`) beside the authorization
   * instead of after it: one hop's wait instead of two. Its bytes reach the client only once the
   * authorization names that very project on that shard; any other answer cancels it unread.
   */
  const startBesideAuthorization = async <Target, Started extends { cancel(): void }>(
    req: Request,
    target: (p: Params) => Target,
    start: (storage: string, projectId: number, target: Target) => Started,
  ) => {
    const headers = credentialsOf(req);
    const p = new Params(req.query, {}, req.params as Record<string, string>);
    const key = projectKey(p);
    const guessed = key.id === null ? null : deps.git.knownStorage(key.id);
    let early: Started | null = null;
    if (guessed) {
      let named: { target: Target } | null = null;
      try {
        named = { target: target(p) };
      } catch {
        // Refused parameters are answered after the authorization, by the call below.
      }
      if (named) early = start(guessed, key.id!, named.target);
    }
    let project;
    try {
      project = await authorize(req, headers, key);
    } catch (error) {
      early?.cancel();
      throw error;
    }
    if (early && (project.id !== key.id || project.repositoryStorage !== guessed)) {
      early.cancel();
      early = null;
    }
    return early ?? start(project.repositoryStorage, project.id, target(p));
  };

  /** A download streamed over gRPC (`opener` names the call), started beside the authorization. */
  const openDownload = async <T>(req: Request, opener: (p: Params) => Opener<T>) => {
    const call = await startBesideAuthorization(req, opener, (storage, projectId, open) => {
      const watched = watch(open(deps.git.on(storage), projectId));
      return { ...watched, cancel: () => watched.stream.cancel() };
    });
    return { call };
  };

  const filepath = (p: Params) => {
    p.require('filepath');
    return { ref: p.string('sha')!, path: p.string('filepath')! };
  };

  /**
   * Asks the worker of `storage` for a download over HTTP (`what`: blobs or archives, see
   * DOWNLOAD_PURPOSE); `cancel` aborts the request, or the answer's body once it has come.
   */
  const askWorker = (what: 'blobs' | 'archives') => (storage: string, projectId: number, query: string) => {
    const abort = new AbortController();
    const answer = deps.workers.of(storage).request({
      method: 'GET',
      path: `/${what}/${projectId}?${query}`,
      headers: {
        ...requestIdHeaders(),
        [GIT_ACCESS_HEADER]: signClaims(
          { projectId } satisfies DownloadClaims,
          deps.secret,
          Date.now(),
          DOWNLOAD_PURPOSE,
        ),
      },
      signal: abort.signal,
    });
    answer.catch(() => {}); // a request given up on fails unread
    return { answer, storage, cancel: () => abort.abort() };
  };

  /**
   * Streams the worker's answer to the client: `head` sets the headers from the worker's; a
   * failure before the first byte is the v3 error its kind means (`nouns` name what was not
   * found); an unreachable worker, or one refusing the facade's claims, a 503.
   */
  const relayAnswer = async (
    worker: ReturnType<ReturnType<typeof askWorker>>,
    req: Request,
    res: Response,
    nouns: NotFoundNouns,
    head: (upstream: Dispatcher.ResponseData) => void,
  ) => {
    let upstream;
    try {
      upstream = await worker.answer;
    } catch (error) {
      deps.logger.warn({ err: error }, 'git worker unreachable for a download');
      throw WORKER_UNAVAILABLE();
    }
    // A client gone while the download was being authorized has no 'close' left to come.
    if (req.socket.destroyed) return upstream.body.destroy();
    if (upstream.statusCode !== 200) {
      upstream.body.dump().catch(() => {});
      if (upstream.statusCode === WORKER_REFUSED) {
        logWorkerRefusal(deps.logger, { storage: worker.storage, path: req.path });
        throw WORKER_UNAVAILABLE();
      }
      throw downloadError(
        gitErrorFromHttp(upstream.headers[GIT_ERROR_HEADER] as string | undefined, upstream.statusCode),
        nouns,
      );
    }
    head(upstream);
    await pipeline(upstream.body, res).catch(() => {
      // The client left, or the worker failed after the first bytes: nothing more can be said.
      if (!res.destroyed) res.destroy();
    });
  };

  const blob = (raw: boolean) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      const worker = await startBesideAuthorization(
        req,
        (p) => new URLSearchParams(raw ? { oid: p.string('sha')! } : filepath(p)).toString(),
        askWorker('blobs'),
      );
      await relayAnswer(
        worker,
        req,
        res,
        raw ? { OBJECT_NOT_FOUND: 'Blob' } : { REF_NOT_FOUND: 'Commit', PATH_NOT_FOUND: 'File' },
        (upstream) => {
          const [text, bytes] = BLOB_TYPES;
          res.status(200).setHeader('Content-Type', upstream.headers[BLOB_HEADERS.text] === '1' ? text : bytes);
          // The worker always sends the blob's size; without it the answer would go out chunked.
          const length = upstream.headers['content-length'];
          if (typeof length === 'string') res.setHeader('Content-Length', length);
          res.setHeader('X-Content-Type-Options', 'nosniff');
        },
      );
    } catch (error) {
      next(error);
    }
  };

  router.get(BLOB.path, blob(false));
  // Later v3 servers' other way to a file at a commit, which existing clients use.
  router.get(COMMIT_BLOB.path, blob(false));
  router.get(RAW_BLOB.path, blob(true));

  /**
   * GitLab 7.14's GET repository/files: the file's metadata with its content in base64, inside
   * JSON. The JSON is written around the bytes as they stream, base64-encoding them on the way
   * (three bytes to four characters, a remainder of up to two bytes carried to the next chunk), so
   * a large file never sits whole in memory.
   */
  router.get(FILE.path, async (req: Request, res: Response, next: NextFunction) => {
    try {
      let ref = '';
      let path = '';
      const { call } = await openDownload(req, (p) => {
        p.require('file_path', 'ref');
        [ref, path] = [p.string('ref')!, p.string('file_path')!];
        return (git, projectId) => git.blob.GetBlob({ repository: { projectId }, ref, path });
      });
      let carry = Buffer.alloc(0);
      let tail = '';
      const encode = (data: Buffer) => {
        const bytes = Buffer.concat([carry, data]);
        const whole = bytes.length - (bytes.length % 3);
        carry = bytes.subarray(whole);
        return Buffer.from(bytes.subarray(0, whole).toString('base64'));
      };
      relay(
        call,
        req,
        res,
        next,
        { REF_NOT_FOUND: 'Commit', PATH_NOT_FOUND: 'File' },
        (first) => {
          const info = first.info!;
          res.status(200).type('application/json');
          const name = path.split('/').filter(Boolean).at(-1) ?? path;
          const head = JSON.stringify({
            file_name: name,
            file_path: path,
            size: Number(info.size),
            encoding: 'base64',
          });
          // Everything after the content is known now too; it is written when the bytes end.
          tail = `","ref":${JSON.stringify(ref)},"blob_id":${JSON.stringify(info.oid)},"commit_id":${JSON.stringify(info.commitId)}}`;
          return Buffer.from(`${head.slice(0, -1)},"content":"`);
        },
        (message) => (message.data ? encode(message.data) : null),
        {
          fields: { filepath: 'file_path', sha: 'ref' },
          onEnd: () => Buffer.concat([Buffer.from(carry.toString('base64')), Buffer.from(tail)]),
        },
      );
    } catch (error) {
      next(error);
    }
  });

  const archive = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { p, project } = await authorizeDownload(req);
      const format = (req.params as Record<string, string>).format ?? 'tar.gz';
      const type = ARCHIVE_TYPES[format];
      if (!type) throw v3Error(404, '404 Not Found');
      const sha = p.string('sha');
      const name = `${project.path}-${sha ?? project.defaultBranch}`.replace(/[^A-Za-z0-9._-]/g, '-');
      // The default branch by its full name: a tag of the same name must not stand in for it.
      const ref = sha ?? `refs/heads/${project.defaultBranch}`;
      const query = new URLSearchParams({ ref, format, prefix: name }).toString();
      // GitLab 7.14's archive route answered any failure to build the archive with not_found!('File').
      await relayAnswer(
        askWorker('archives')(project.repositoryStorage, project.id, query),
        req,
        res,
        { REF_NOT_FOUND: 'File' },
        () => {
          res.status(200).setHeader('Content-Type', type);
          res.setHeader('Content-Disposition', `attachment; filename="${name}.${format}"`);
        },
      );
    } catch (error) {
      next(error);
    }
  };
  router.get(ARCHIVE.path, archive);
  // FORMATTED_ARCHIVE: a pattern, so that only the four formats are routes.
  router.get(/^\/projects\/([^/]+)\/repository\/archive\.(tar\.gz|tar\.bz2|tar|zip)$/, (req, res, next) => {
    const [id, format] = [req.params[0], req.params[1]];
    (req as unknown as { params: Record<string, string> }).params = { id, format };
    return archive(req, res, next);
  });
  return router;
}
