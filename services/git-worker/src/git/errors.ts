import { Metadata, status } from '@grpc/grpc-js';
import { encodeErrorDetail, ERROR_DETAIL_TRAILER, type GitErrorKind as ErrorKind } from '@hub/protos';

const STATUS: Record<ErrorKind, status> = {
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  REPOSITORY_NOT_FOUND: status.NOT_FOUND,
  REF_NOT_FOUND: status.NOT_FOUND,
  PATH_NOT_FOUND: status.NOT_FOUND,
  OBJECT_NOT_FOUND: status.NOT_FOUND,
  ALREADY_EXISTS: status.ALREADY_EXISTS,
  EMPTY_REPOSITORY: status.NOT_FOUND,
  MERGE_CONFLICT: status.FAILED_PRECONDITION,
  CONCURRENT_UPDATE: status.ABORTED,
};

/**
 * An expected failure: a gRPC status plus the ErrorDetail trailer saying what went wrong. The kind
 * and field are the contract; the message is the worker's own words for logs, and callers choose
 * the API's wording from the kind (see gitDomainError in protos).
 */
export class GitError extends Error {
  readonly code: status;
  readonly details: string;
  readonly metadata: Metadata;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly field = '',
  ) {
    super(message);
    this.code = STATUS[kind];
    this.details = message;
    this.metadata = new Metadata();
    this.metadata.set(ERROR_DETAIL_TRAILER, encodeErrorDetail({ kind, message, field }));
  }
}

export const gitError = (kind: ErrorKind, message: string, field = '') => new GitError(kind, message, field);
