import { DomainError, ErrorCode } from '@hub/common';
import { gitDomainError, type NotFoundNouns } from '@hub/protos';
import { fromGraphQLError } from '../../v3-errors';

export const WORKER_UNAVAILABLE = () =>
  fromGraphQLError(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable'));

/**
 * A worker failure before any byte was sent, as the v3 error it means (the one kind → error map);
 * `fields` renames the worker's field names to the route's parameter names.
 */
export function downloadError(error: unknown, nouns: NotFoundNouns, fields: Record<string, string> = {}) {
  const mapped = gitDomainError(error, nouns);
  if (!(mapped instanceof DomainError)) return mapped;
  const invalid = mapped.extensions.fields as Record<string, string[]> | undefined;
  if (invalid)
    mapped.extensions.fields = Object.fromEntries(
      Object.entries(invalid).map(([field, messages]) => [fields[field] ?? field, messages]),
    );
  return fromGraphQLError(mapped);
}
