import { Metadata, status } from '@grpc/grpc-js';
import { DomainError, ErrorCode, invalid, notFound } from '@hub/common';
import type { _hub_git_v1_ErrorDetail_Kind__Output } from './generated/hub/git/v1/ErrorDetail';
import { decodeErrorDetail, ERROR_DETAIL_TRAILER } from './load';

/** errors.proto's ErrorDetail.Kind, as the worker raises it. */
export type GitErrorKind = Exclude<_hub_git_v1_ErrorDetail_Kind__Output, 'KIND_UNSPECIFIED'>;

export interface GitFailure {
  kind: GitErrorKind;
  /** The worker's own words, for logs; API wording is chosen on the caller's side. */
  message: string;
  /** The request field at fault, when there is one. */
  field: string;
}

/** The ErrorDetail a failed call carries, when the worker sent one. */
export function gitFailureOf(error: unknown): GitFailure | null {
  const metadata = (error as { metadata?: Metadata })?.metadata;
  const bytes = metadata?.get?.(ERROR_DETAIL_TRAILER)?.[0];
  return Buffer.isBuffer(bytes) ? (decodeErrorDetail(bytes) as GitFailure) : null;
}

/**
 * The header a failed HTTP read from the worker (a blob download) carries its ErrorDetail in,
 * base64: the same contract as the gRPC trailer, so one mapping (gitDomainError) serves both.
 */
export const GIT_ERROR_HEADER = 'x-git-error';

/** A worker HTTP answer's failure as the error gitDomainError reads (its detail in the trailer's place). */
export function gitErrorFromHttp(header: string | undefined, status: number): Error {
  const error = new Error(`git worker answered ${status}`) as Error & { metadata?: Metadata };
  if (header) {
    const metadata = new Metadata();
    metadata.set(ERROR_DETAIL_TRAILER, Buffer.from(header, 'base64'));
    error.metadata = metadata;
  }
  return error;
}

const grpcCode = (error: unknown) => (error as { code?: number })?.code;
/** The worker could not be reached, or did not answer in time. */
const isWorkerUnavailable = (error: unknown) =>
  grpcCode(error) === status.UNAVAILABLE || grpcCode(error) === status.DEADLINE_EXCEEDED;
/**
 * The worker refused the caller's signed credential (UNAUTHENTICATED: PRINCIPAL_SECRET differs
 * between them, or their clocks are too far apart) or its name (PERMISSION_DENIED): a fault of the
 * deployment, never of the request, which callers answer as a service unavailable, as they answer
 * the worker's refusal of the facade's claims over HTTP.
 */
export const isWorkerRefusal = (error: unknown) =>
  grpcCode(error) === status.UNAUTHENTICATED || grpcCode(error) === status.PERMISSION_DENIED;
/** The caller cancelled the call (a client that went away mid-download). */
export const isCancelled = (error: unknown) => grpcCode(error) === status.CANCELLED;

/** What a not-found failure names, per kind: "404 <noun> Not Found". Callers name what they asked for. */
export type NotFoundNouns = Partial<Record<GitErrorKind, string>>;

const NOT_FOUND_NOUNS: Record<string, string> = {
  REPOSITORY_NOT_FOUND: 'Repository',
  EMPTY_REPOSITORY: 'Repository',
  REF_NOT_FOUND: 'Ref',
  PATH_NOT_FOUND: 'File',
  OBJECT_NOT_FOUND: 'Object',
};

/**
 * The one mapping of a git worker failure to the API's errors, by kind (never by message): a bad
 * argument is a 400 naming its field, what is not there a 404 with the noun the caller names,
 * conflicts 409, merge conflicts GitLab's 405, an unreachable worker or one refusing the caller
 * 503. Anything else is unexpected and stays as it is.
 */
export function gitDomainError(error: unknown, nouns: NotFoundNouns = {}): Error {
  const failure = gitFailureOf(error);
  if (!failure)
    return isWorkerUnavailable(error) || isWorkerRefusal(error)
      ? new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable')
      : (error as Error);
  switch (failure.kind) {
    case 'INVALID_ARGUMENT':
      return invalid({ [failure.field || 'ref']: ['is invalid'] });
    case 'ALREADY_EXISTS':
      return new DomainError(ErrorCode.CONFLICT, '409 Already exists');
    case 'MERGE_CONFLICT':
      return new DomainError(ErrorCode.METHOD_NOT_ALLOWED, 'Branch cannot be merged');
    case 'CONCURRENT_UPDATE':
      return new DomainError(ErrorCode.CONFLICT, '409 Conflict');
    default:
      return notFound(nouns[failure.kind] ?? NOT_FOUND_NOUNS[failure.kind] ?? '');
  }
}
