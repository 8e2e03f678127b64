import type { ClientReadableStream } from '@grpc/grpc-js';
import { isCancelled, type GitClients, type NotFoundNouns } from '@hub/protos';
import type { NextFunction, Request, Response } from 'express';
import { downloadError } from './download-error';

/** Opens the worker stream of a download on a shard's clients. */
export type Opener<T> = (git: GitClients, projectId: number) => ClientReadableStream<T>;

/**
 * A worker stream whose failure and status are recorded from the moment it is opened: a stream
 * opened before the authorization answers may end (or fail) before anything relays it, and an
 * 'error' with no listener would throw.
 */
export interface Watched<T> {
  stream: ClientReadableStream<T>;
  onError(listener: (error: Error) => void): void;
  onStatus(listener: (status: { code: number }) => void): void;
}

export function watch<T>(stream: ClientReadableStream<T>): Watched<T> {
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
export function relay<T>(
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
