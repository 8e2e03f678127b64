import { BLOB_HEADERS } from '@hub/common';
import type { NextFunction, Request, Response } from 'express';
import type { Params } from '../../params';
import type { DownloadAuthorization } from './authorization';
import { BLOB_TYPES } from './docs';
import type { WorkerDownloads } from './worker-answer';

/** A ref and a path inside it, as the blob routes name them. */
const filepath = (p: Params) => {
  p.require('filepath');
  return { ref: p.string('sha')!, path: p.string('filepath')! };
};

/** A file's bytes at a commit (by path) or, `raw`, a blob's by its sha. */
export const blobHandler =
  ({ startBesideAuthorization }: DownloadAuthorization, { askWorker, relayAnswer }: WorkerDownloads, raw: boolean) =>
  async (req: Request, res: Response, next: NextFunction) => {
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
