import { status, type sendUnaryData, type ServerUnaryCall, type ServerWritableStream } from '@grpc/grpc-js';
import type { Logger } from '@hub/common';
import { GitError } from './git/errors';
import type { ReaderPool } from './git/object-reader';

/** What every handler is built from. */
export interface WorkerDeps {
  /** Where the bare repositories live. */
  root: string;
  logger: Logger;
  /** How long a compare may take before it is cut short. */
  compareTimeoutMs: number;
  /** Whether imports may reach loopback and private addresses. */
  importAllowLocal: boolean;
  /** Warm `cat-file --batch-command` processes for hot reads. */
  readers: ReaderPool;
}

function toServiceError(error: unknown, logger: Logger, rpc: string) {
  if (error instanceof GitError) return error;
  logger.error({ err: error, rpc }, 'git worker call failed');
  return { code: status.INTERNAL, details: 'internal error', message: 'internal error' };
}

/** A unary handler from an async function: expected failures keep their status, the rest are logged. */
export const unary =
  <Req, Res>(rpc: string, deps: WorkerDeps, handle: (request: Req) => Promise<Res>) =>
  (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error) => callback(toServiceError(error, deps.logger, rpc) as never),
    );
  };

/** A server-streaming handler: `handle` writes with backpressure and resolves when done. */
export const streaming =
  <Req, Res>(rpc: string, deps: WorkerDeps, handle: (request: Req, call: ServerWritableStream<Req, Res>) => Promise<void>) =>
  (call: ServerWritableStream<Req, Res>) => {
    handle(call.request, call).then(
      () => call.end(),
      (error) => call.emit('error', toServiceError(error, deps.logger, rpc)),
    );
  };

/** The project id a request names. */
export const projectIdOf = (request: { repository?: { projectId?: number } | null }) => request.repository?.projectId ?? 0;
