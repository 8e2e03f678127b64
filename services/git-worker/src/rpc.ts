import {
  status,
  type Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
} from '@grpc/grpc-js';
import {
  acceptRequestId,
  markRequestSpan,
  REQUEST_ID_HEADER,
  verifyPrincipal,
  withRequestId,
  type Logger,
} from '@hub/common';
import { GIT_CALLER_METADATA } from '@hub/protos';
import { GitError } from './git/errors';
import type { CompareCache } from './diff/compare-cache';
import type { ContributorStats } from './diff/contributor-stats';
import type { HistoryLengths } from './commit/history-lengths';
import type { ReaderPool } from './git/object-reader';
import type { StartGit } from './git/run';

/** What every handler is built from. */
export interface WorkerDeps {
  /** Where the bare repositories live. */
  root: string;
  logger: Logger;
  /** How long a compare may take before it is cut short. */
  compareTimeoutMs: number;
  /** Whether imports may reach loopback and private addresses. */
  importAllowLocal: boolean;
  /**
   * How the expensive git runs start (the git launcher in the worker, launcher.ts): the diffs and
   * walks of compare, contributors and commit pages, history counts, ref listings, archives, large
   * blobs, a push's event reads and a new repository's init. Single refs and commits are looked up
   * in the warm readers instead.
   */
  startGit: StartGit;
  /** Warm `cat-file --batch-command` processes for hot reads. */
  readers: ReaderPool;
  /** Contributor counts per commit, cached and computed once however many ask at a time. */
  contributors: ContributorStats;
  /** History lengths per commit (a commits page's total), cached the same way. */
  historyLengths: HistoryLengths;
  /** Compare answers per commit pair, cached the same way. */
  compares: CompareCache;
  /** Who may call: the shared secret calls are signed with, and the services allowed. */
  callers: { secret: string; allowed: readonly string[] };
  /** Records a ref update an RPC made as a push (events feed, hooks), as a git push would be. */
  recordPush: (push: MadePush) => Promise<void>;
}

/** A branch update made by the worker itself (a commit through the API). */
export interface MadePush {
  projectId: number;
  repo: string;
  userId: number | null;
  username: string | null;
  update: { before: string; after: string; ref: string };
  /** The repository had no refs before. */
  wasEmpty: boolean;
}

/** The services that call the worker over gRPC (the facade streams downloads). */
export const GRPC_CALLERS = ['repository', 'mergerequests', 'rest-facade'] as const;

/**
 * Every call carries the caller's signed name (as Gitaly's calls carry a token): none, a forged
 * or stale one is UNAUTHENTICATED, a service not on the list PERMISSION_DENIED.
 */
function refusal(metadata: Metadata, deps: WorkerDeps) {
  const value = metadata.get(GIT_CALLER_METADATA)[0];
  const caller = verifyPrincipal(typeof value === 'string' ? value : undefined, deps.callers.secret);
  if (!caller?.system)
    return {
      code: status.UNAUTHENTICATED,
      details: 'a signed caller is required',
      message: 'a signed caller is required',
    };
  if (!deps.callers.allowed.includes(caller.system))
    return {
      code: status.PERMISSION_DENIED,
      details: `${caller.system} may not call the git worker`,
      message: 'permission denied',
    };
  return null;
}

function toServiceError(error: unknown, logger: Logger, rpc: string) {
  if (error instanceof GitError) return error;
  logger.error({ err: error, rpc }, 'git worker call failed');
  return { code: status.INTERNAL, details: 'internal error', message: 'internal error' };
}

/** The request a call is part of: the caller's id (request-id.ts), or a new one for a call made outside any. */
const requestIdOf = (metadata: Metadata) => {
  const value = metadata.get(REQUEST_ID_HEADER)[0];
  const id = acceptRequestId(typeof value === 'string' ? value : undefined);
  // The call's server span began before the handler, outside the request's context: name it here.
  markRequestSpan(id);
  return id;
};

/** A unary handler from an async function: expected failures keep their status, the rest are logged. */
export const unary =
  <Req, Res>(rpc: string, deps: WorkerDeps, handle: (request: Req) => Promise<Res>) =>
  (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const refused = refusal(call.metadata, deps);
    if (refused) return callback(refused as never);
    withRequestId(requestIdOf(call.metadata), () => handle(call.request)).then(
      (response) => callback(null, response),
      (error) => callback(toServiceError(error, deps.logger, rpc) as never),
    );
  };

/** A server-streaming handler: `handle` writes with backpressure and resolves when done. */
export const streaming =
  <Req, Res>(
    rpc: string,
    deps: WorkerDeps,
    handle: (request: Req, call: ServerWritableStream<Req, Res>) => Promise<void>,
  ) =>
  (call: ServerWritableStream<Req, Res>) => {
    const refused = refusal(call.metadata, deps);
    if (refused) return void call.emit('error', refused);
    withRequestId(requestIdOf(call.metadata), () => handle(call.request, call)).then(
      () => call.end(),
      (error) => call.emit('error', toServiceError(error, deps.logger, rpc)),
    );
  };

/** The project id a request names. */
export const projectIdOf = (request: { repository?: { projectId?: number } | null }) =>
  request.repository?.projectId ?? 0;
