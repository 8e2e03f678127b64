import { getNamedType, isInputObjectType, type GraphQLResolveInfo } from 'graphql';
import { DomainError, ErrorCode, type FieldErrors } from './errors';

/**
 * Mutation results in the public schema's shape (GitHub's and GitLab's GraphQL APIs are the
 * model): each mutation takes one `input` and answers a payload holding the entity, the caller's
 * `clientMutationId` echoed, and `errors` for the outcomes a caller should expect and show to a
 * person (a value that breaks a rule, a name already taken, a merge that cannot happen now).
 * Everything else (not signed in, not found, forbidden, a service down) stays a GraphQL error
 * with `extensions.code`, as for queries.
 */

/** The public kinds of an expected refusal; the `UserErrorCode` enum of every subgraph with mutations. */
export type UserErrorCode = 'INVALID' | 'CONFLICT' | 'UNPROCESSABLE' | 'NOT_ALLOWED';

/** The domain codes that are expected outcomes of a mutation, and how the public schema names each. */
const USER_ERROR_CODES: Partial<Record<ErrorCode, UserErrorCode>> = {
  [ErrorCode.BAD_REQUEST]: 'INVALID',
  [ErrorCode.VALIDATION]: 'INVALID',
  [ErrorCode.CONFLICT]: 'CONFLICT',
  [ErrorCode.UNPROCESSABLE]: 'UNPROCESSABLE',
  [ErrorCode.METHOD_NOT_ALLOWED]: 'NOT_ALLOWED',
};

/** One expected refusal, as the `UserError` type answers it. */
export interface UserError {
  code: UserErrorCode;
  /** The input field at fault, from the mutation's argument down (`["input", "title"]`); null when no one field is. */
  path: string[] | null;
  message: string;
  /** The v3 attribute the message is about (GitLab's validation hash key), for the facade; null when none. */
  v3Attribute: string | null;
  /** The message exactly as v3 words it, for the facade. */
  v3Message: string;
}

export interface MutationPayload {
  clientMutationId: string | null;
  errors: UserError[];
}

/** What every mutation input may carry besides its own fields. */
export interface MutationInput {
  clientMutationId?: string | null;
}

const camelCase = (attribute: string) => attribute.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** v3's status words are for HTTP clients; the public message starts at what went wrong. */
const withoutStatus = (message: string) => message.replace(/^\d{3} (?:\([^)]*\) )?/, '');

/** GitLab's full_messages: the attribute, humanised, then its message ("Title can't be blank"). */
const fullMessage = (attribute: string, message: string) => {
  const words = attribute.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${message}`;
};

const isMessageList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((message) => typeof message === 'string');

/** The input fields of the mutation being resolved, to name the one at fault in `path`. */
function inputFieldsOf(info: GraphQLResolveInfo | undefined): ReadonlySet<string> {
  const field = info?.parentType.getFields()[info.fieldName];
  const input = field?.args.find((argument) => argument.name === 'input');
  const type = input && getNamedType(input.type);
  return new Set(type && isInputObjectType(type) ? Object.keys(type.getFields()) : []);
}

/**
 * The user errors an error stands for, or null when it is not an expected outcome (then it stays a
 * GraphQL error). A validation hash becomes one error per message, each pointing at its input
 * field when the mutation's input has one of that name.
 */
export function userErrorsOf(error: unknown, info?: GraphQLResolveInfo): UserError[] | null {
  if (!(error instanceof DomainError)) return null;
  const code = USER_ERROR_CODES[error.code];
  if (!code) return null;
  const fields = error.extensions.fields as FieldErrors | undefined;
  // GitLab nested some hashes (refused label names: {"labels": {"a&b": {"title": [...]}}}), which
  // one attribute and one message per UserError cannot carry: those stay the GraphQL error they
  // are (VALIDATION, the hash in extensions.fields), which the facade answers as v3 did.
  if (fields && !Object.values(fields).every(isMessageList)) return null;
  if (!fields)
    return [{ code, path: null, message: withoutStatus(error.message), v3Attribute: null, v3Message: error.message }];
  const inputFields = inputFieldsOf(info);
  return Object.entries(fields).flatMap(([attribute, messages]) => {
    const field = camelCase(attribute);
    const path = inputFields.has(field) ? ['input', field] : null;
    return messages.map((message) => ({
      code,
      path,
      message: fullMessage(attribute, message),
      v3Attribute: attribute,
      v3Message: message,
    }));
  });
}

/**
 * Runs a mutation's command and answers its payload: `{ [entity]: result, errors: [] }`, or, when
 * the command refuses with an expected outcome, `{ [entity]: null, errors }`. Other errors are
 * thrown on, to reach the caller as GraphQL errors.
 */
export async function mutationPayload<K extends string, T>(
  entity: K,
  input: MutationInput,
  info: GraphQLResolveInfo | undefined,
  command: () => Promise<T> | T,
): Promise<MutationPayload & { [key in K]: T | null }> {
  const clientMutationId = input.clientMutationId ?? null;
  try {
    const result = await command();
    return { clientMutationId, errors: [], [entity]: result } as MutationPayload & { [key in K]: T | null };
  } catch (error) {
    const errors = userErrorsOf(error, info);
    if (!errors) throw error;
    return { clientMutationId, errors, [entity]: null } as MutationPayload & { [key in K]: T | null };
  }
}
