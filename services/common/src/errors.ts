import { GraphQLError } from 'graphql';

/**
 * The error codes that cross the GraphQL boundary (ARCHITECTURE.md). Subgraphs raise them with a
 * message already in GitLab v3's wording; the facade maps each code to an HTTP status in one table.
 */
export const ErrorCode = {
  NOT_FOUND: 'NOT_FOUND',
  FORBIDDEN: 'FORBIDDEN',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  BAD_REQUEST: 'BAD_REQUEST',
  /** An argument the public schema's callers got wrong (a cursor, a page size), named in `extensions.argument`. */
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  VALIDATION: 'VALIDATION',
  CONFLICT: 'CONFLICT',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  UNPROCESSABLE: 'UNPROCESSABLE',
  /** Refused by a rate or authentication-failure limit; the answer's Retry-After says for how long. */
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  /** A service the operation needs is down or unreachable. */
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Per-field validation messages, GitLab's `render_validation_error!` shape. */
export type FieldErrors = Record<string, string[]>;

/** An expected domain outcome: shown to the caller as is, never logged as a failure. */
export class DomainError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...extra } });
  }
}

// INTERNAL_SERVER_ERROR is also what Apollo stamps on any unexpected throw, so it never counts as
// an expected outcome: such errors are logged and masked wherever they surface.
const DOMAIN_CODES = new Set<string>(Object.values(ErrorCode).filter((code) => code !== ErrorCode.INTERNAL));
export const isDomainCode = (code: unknown): code is ErrorCode => typeof code === 'string' && DOMAIN_CODES.has(code);

export const notFound = (what?: string) =>
  new DomainError(ErrorCode.NOT_FOUND, what ? `404 ${what} Not Found` : '404 Not Found');
/** What GitLab 7.14 answered where it looked a record up with `find` (ActiveRecord::RecordNotFound, lower-case f). */
export const recordNotFound = () => new DomainError(ErrorCode.NOT_FOUND, '404 Not found');
/**
 * GitLab's forbidden!(reason): the reason follows '403 Forbidden' as ' - <reason>', and its helper
 * joined the two parts with a space, so v3 clients saw two spaces before the dash.
 */
export const forbidden = (reason?: string) =>
  new DomainError(ErrorCode.FORBIDDEN, reason === undefined ? '403 Forbidden' : `403 Forbidden  - ${reason}`);
/** GitLab's find_group for a group the caller may not read: 403 naming the caller and the group. */
export const groupForbidden = (username: string | null, groupName: string) =>
  forbidden(`${username ?? 'anonymous'} lacks sufficient access to ${groupName}`);
/**
 * The extension a 401 carries when the credentials themselves were refused (an unknown token, a
 * wrong password), as opposed to a rule answering 401 to a known user (GitLab's accept without push
 * rights): only the first counts against an address's failed-authentication budget.
 */
export const CREDENTIALS_REFUSED = 'credentialsRefused';
export const unauthenticated = () => new DomainError(ErrorCode.UNAUTHENTICATED, '401 Unauthorized');
export const missingAttribute = (attribute: string) =>
  new DomainError(ErrorCode.BAD_REQUEST, `400 (Bad request) "${attribute}" not given`);
export const badRequest = (message: string) => new DomainError(ErrorCode.BAD_REQUEST, message);
export const invalid = (fields: FieldErrors) => new DomainError(ErrorCode.VALIDATION, 'Validation failed', { fields });
/** A string message, or per-field messages (GitLab answered some conflicts with a validation hash). */
export const conflict = (message: string | FieldErrors) =>
  typeof message === 'string'
    ? new DomainError(ErrorCode.CONFLICT, message)
    : new DomainError(ErrorCode.CONFLICT, '409 Conflict', { fields: message });
export const methodNotAllowed = (message = '405 Method Not Allowed') =>
  new DomainError(ErrorCode.METHOD_NOT_ALLOWED, message);
export const unprocessable = (message: string | FieldErrors) =>
  typeof message === 'string'
    ? new DomainError(ErrorCode.UNPROCESSABLE, message)
    : new DomainError(ErrorCode.UNPROCESSABLE, '422 Unprocessable Entity', { fields: message });

/** Errors GraphQL itself raises about a malformed request: safe to show as they are. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'BAD_REQUEST',
]);

/** Whether an error with this code reaches the caller unchanged (anything else is logged and masked). */
export const isShownAsIs = (code: unknown) =>
  isDomainCode(code) || (typeof code === 'string' && REQUEST_ERROR_CODES.has(code));

/** Collects per-field problems and throws them together, as a model's `valid?` did. */
export class FieldErrorCollector {
  private readonly fields: FieldErrors = {};
  add(field: string, message: string): void {
    (this.fields[field] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
  /** The problems so far, per field, in the order they were added. */
  get errors(): FieldErrors {
    return this.fields;
  }
  throwIfAny(): void {
    if (!this.empty) throw invalid(this.fields);
  }
}
