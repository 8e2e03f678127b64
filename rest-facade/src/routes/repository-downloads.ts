import type { Router } from 'express';
import express from 'express';
import { archiveHandler } from './downloads/archive';
import { createDownloadAuthorization } from './downloads/authorization';
import { blobHandler } from './downloads/blobs';
import type { DownloadDeps } from './downloads/deps';
import { ARCHIVE, BLOB, COMMIT_BLOB, FILE, FORMATTED_ARCHIVE, RAW_BLOB } from './downloads/docs';
import { fileHandler } from './downloads/file';
import { createWorkerDownloads } from './downloads/worker-answer';
import type { RouteDoc } from '../route';

export const downloadRoutes: RouteDoc[] = [BLOB, COMMIT_BLOB, RAW_BLOB, FILE, ARCHIVE, FORMATTED_ARCHIVE];

/**
 * Raw files and archives: the gateway authorizes (downloads/authorization.ts) and names the
 * project and its shard; the bytes then stream from that shard's git worker to the client: blobs
 * and archives over the worker's HTTP port (downloads/worker-answer.ts), the base64 files API over
 * a gRPC stream (downloads/grpc-relay.ts).
 */
export function createDownloadRoutes(deps: DownloadDeps): Router {
  const router = express.Router();
  const authorization = createDownloadAuthorization(deps);
  const worker = createWorkerDownloads(deps);

  router.get(BLOB.path, blobHandler(authorization, worker, false));
  // Later v3 servers' other way to a file at a commit, which existing clients use.
  router.get(COMMIT_BLOB.path, blobHandler(authorization, worker, false));
  router.get(RAW_BLOB.path, blobHandler(authorization, worker, true));
  router.get(FILE.path, fileHandler(deps, authorization));

  const archive = archiveHandler(authorization, worker);
  router.get(ARCHIVE.path, archive);
  // FORMATTED_ARCHIVE: a pattern, so that only the four formats are routes.
  router.get(/^\/projects\/([^/]+)\/repository\/archive\.(tar\.gz|tar\.bz2|tar|zip)$/, (req, res, next) => {
    const [id, format] = [req.params[0], req.params[1]];
    (req as unknown as { params: Record<string, string> }).params = { id, format };
    return archive(req, res, next);
  });
  return router;
}
