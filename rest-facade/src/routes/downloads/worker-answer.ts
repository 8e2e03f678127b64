import { DOWNLOAD_PURPOSE, GIT_ACCESS_HEADER, requestIdHeaders, signClaims, type DownloadClaims } from '@hub/common';
import { gitErrorFromHttp, GIT_ERROR_HEADER, type NotFoundNouns } from '@hub/protos';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { logWorkerRefusal, WORKER_REFUSED } from '../../worker-http';
import type { DownloadDeps } from './deps';
import { downloadError, WORKER_UNAVAILABLE } from './download-error';

/** Blobs and archives: the bytes come from the worker's HTTP port and are piped to the client. */
export function createWorkerDownloads(deps: DownloadDeps) {
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

  return { askWorker, relayAnswer };
}

export type WorkerDownloads = ReturnType<typeof createWorkerDownloads>;
