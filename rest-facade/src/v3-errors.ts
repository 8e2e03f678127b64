import { ErrorCode } from '@hub/common';

/** A finished v3 error response: the status and the `{"message": ...}` body. */
export class V3Error extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    /** The GraphQL error's extensions, when it came from one (routes with their own error shape read them). */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `${status}`);
  }
}

export const v3Error = (status: number, message: unknown) => new V3Error(status, { message });

/** The one table from a GraphQL error code to a v3 status. */
const STATUS_BY_CODE: Record<string, number> = {
  [ErrorCode.BAD_REQUEST]: 400,
  [ErrorCode.VALIDATION]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.METHOD_NOT_ALLOWED]: 405,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.TOO_MANY_REQUESTS]: 429,
  [ErrorCode.UNPROCESSABLE]: 422,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.INTERNAL]: 500,
  // Requests GraphQL refused before running them: an input the facade passed on unchecked.
  GRAPHQL_VALIDATION_FAILED: 400,
  BAD_USER_INPUT: 400,
};

export interface GraphQLErrorShape {
  message: string;
  extensions?: { code?: string; fields?: Record<string, string[]>; [key: string]: unknown };
}

/** The v3 response for the first error of a gateway answer. */
export function fromGraphQLError(error: GraphQLErrorShape): V3Error {
  const extensions = error.extensions ?? {};
  const code = extensions.code ?? ErrorCode.INTERNAL;
  const status = STATUS_BY_CODE[code] ?? 500;
  const message =
    // Validation, and the conflicts and unprocessable entities GitLab also reported per field.
    extensions.fields && status < 500
      ? extensions.fields
      : code === 'GRAPHQL_VALIDATION_FAILED' || code === 'BAD_USER_INPUT'
        ? '400 (Bad request)'
        : status === 500
          ? '500 Internal Server Error'
          : error.message;
  return new V3Error(status, { message }, extensions);
}

/** A mutation payload's error as the facade's documents select it (`...V3UserError`). */
export interface UserErrorShape {
  code: string;
  v3Attribute?: string | null;
  v3Message: string;
}

/** The status of each public user error code: the v3 status of the domain error it came from. */
const STATUS_BY_USER_ERROR_CODE: Record<string, number> = {
  INVALID: 400,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  NOT_ALLOWED: 405,
};

/**
 * The v3 response for a mutation payload's errors: GitLab's validation hash
 * (`{"message": {"title": ["can't be blank"]}}`) when they name attributes, else the first one's
 * message.
 */
export function fromUserErrors(errors: readonly UserErrorShape[]): V3Error {
  const [first] = errors;
  const status = STATUS_BY_USER_ERROR_CODE[first.code] ?? 500;
  const attributed = errors.filter((error) => error.v3Attribute);
  if (!attributed.length) return new V3Error(status, { message: first.v3Message });
  const fields: Record<string, string[]> = {};
  for (const error of attributed) (fields[error.v3Attribute as string] ??= []).push(error.v3Message);
  return new V3Error(status, { message: fields }, { code: first.code, fields });
}

export const NOT_FOUND = () => v3Error(404, '404 Not Found');
/** A record a route names that does not exist: GitLab's ActiveRecord::RecordNotFound answer (lower-case f). */
export const RECORD_NOT_FOUND = () => v3Error(404, '404 Not found');
export const UNAUTHORIZED = () => v3Error(401, '401 Unauthorized');
