import type { JsonSchema } from './json-schema';

/**
 * What every operation of the description shares: the error answers, the headers, the ways to
 * present credentials and to act as another user.
 */

const ref = (kind: 'schemas' | 'responses' | 'headers' | 'parameters', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
/** A list's pagination headers, on every page. */
const pageHeader = (description: string, type = 'integer') => ({ description, required: true, schema: { type } });

export const headers = {
  'X-Request-Id': {
    description: "The request's id, in every log line and span of it: the client's when safe, else a new one.",
    required: true,
    schema: { type: 'string' },
  },
  'RateLimit-Limit': integerHeader(
    "The requests the caller's budget allows a window (per token, or per address without one).",
  ),
  'RateLimit-Remaining': integerHeader('The requests left in this window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window starts again.'),
  'Retry-After': integerHeader('Seconds to wait before asking again.'),
  Link: pageHeader('URLs of the prev (not on the first page), next (not on the last), first and last pages.', 'string'),
  'X-Total': pageHeader('Items in all pages.'),
  'X-Total-Pages': pageHeader('Pages in all.'),
  'X-Per-Page': pageHeader('Items per page.'),
  'X-Page': pageHeader('This page.'),
  'X-Next-Page': pageHeader('The next page; empty on the last.', 'string'),
  'X-Prev-Page': pageHeader('The previous page; empty on the first.', 'string'),
  ETag: {
    description: "The answer's version for this caller, weak: If-None-Match with it gets 304 while it is current.",
    required: true,
    schema: { type: 'string', pattern: '^W/".+"$' },
  },
  'Cache-Control': {
    description: 'Kept by the client alone, and checked with the server before reuse.',
    required: true,
    schema: { type: 'string', const: 'max-age=0, private, must-revalidate' },
  },
};

const refs = (...names: string[]) => Object.fromEntries(names.map((name) => [name, ref('headers', name)]));

/** Headers every answer may carry: its request id always, where the caller stands when limits apply. */
export const answerHeaders = refs('X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');

/** A JSON answer to a GET, and its 304: the tag and how it may be kept. */
export const tagHeaders = refs('ETag', 'Cache-Control');

export const pageHeaders = refs(
  'Link',
  'X-Total',
  'X-Total-Pages',
  'X-Per-Page',
  'X-Page',
  'X-Next-Page',
  'X-Prev-Page',
);

export const schemas: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    description:
      'A v3 error. `message` is a text ("404 Project Not Found", "400 (Bad request) \\"name\\" not given"), or for a ' +
      'validation failure an object mapping each field to its messages (an embedded entity nested the same way).',
    properties: { message: { anyOf: [{ type: 'string' }, ref('schemas', 'FieldErrors')] } },
    required: ['message'],
    additionalProperties: false,
  },
  FieldErrors: {
    type: 'object',
    additionalProperties: { anyOf: [{ type: 'array', items: { type: 'string' } }, ref('schemas', 'FieldErrors')] },
  },
};

/** The error answers, by status, with what each means here. */
const ERRORS: Record<string, { name: string; description: string; retry?: boolean; server?: boolean }> = {
  400: { name: 'BadRequest', description: 'A required parameter is missing, or one is invalid.' },
  401: { name: 'Unauthorized', description: 'No valid credentials.' },
  403: { name: 'Forbidden', description: 'Not allowed to the caller (a sudo without admin rights too).' },
  404: { name: 'NotFound', description: 'Nothing there the caller may see (an unknown sudo user too).' },
  405: { name: 'MethodNotAllowed', description: 'Refused in this state, with the reason (a merge, a tag).' },
  408: {
    name: 'RequestTimeout',
    description: 'The request did not arrive in time (answered by the HTTP server, before any route).',
    server: true,
  },
  409: { name: 'Conflict', description: 'It exists already.' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the facade reads.' },
  422: { name: 'UnprocessableEntity', description: 'It could not be done as asked.' },
  429: {
    name: 'TooManyRequests',
    description: 'Past the request budget, or past the budget of failed sign-ins.',
    retry: true,
  },
  431: {
    name: 'RequestHeaderFieldsTooLarge',
    description:
      'The URL and headers are larger than the server reads (answered by the HTTP server, before any route).',
    server: true,
  },
  500: { name: 'InternalServerError', description: 'An unexpected failure.' },
  502: { name: 'BadGateway', description: 'A service the route needs answered nonsense.' },
  503: { name: 'ServiceUnavailable', description: 'A service the route needs is down.', retry: true },
};

export const errorResponses = Object.fromEntries(
  Object.values(ERRORS).map(({ name, description, retry, server }) => [
    name,
    {
      description,
      ...(!server && { headers: { ...answerHeaders, ...(retry && { 'Retry-After': ref('headers', 'Retry-After') }) } }),
      content: { 'application/json': { schema: ref('schemas', 'Error') } },
    },
  ]),
);

/** What a GET answers when If-None-Match names the version the caller has. */
export const notModified = {
  description: 'Not modified: the caller has this version.',
  headers: { ...answerHeaders, ...tagHeaders },
};

/** The error statuses a route may answer: any route; and those of a change to the state. */
// A GET's body is read too, so it can be over the limit.
const READ_ERRORS = ['400', '401', '403', '404', '408', '413', '429', '431', '500', '502', '503'];
const WRITE_ERRORS = [...READ_ERRORS, '405', '409', '422'].sort();

/** An operation's error answers, by reference (or inline where the route has a shape of its own besides v3's). */
export function errorsOf(method: string, errorShape?: JsonSchema) {
  const statuses = method === 'get' ? READ_ERRORS : WRITE_ERRORS;
  return Object.fromEntries(
    statuses.map((status) => {
      const shared = errorResponses[ERRORS[status].name];
      if (!errorShape) return [status, ref('responses', ERRORS[status].name)];
      const schema = { anyOf: [ref('schemas', 'Error'), errorShape] };
      return [status, { ...shared, content: { 'application/json': { schema } } }];
    }),
  );
}

export const securitySchemes = {
  PrivateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: "A user's private token." },
  PrivateTokenParam: {
    type: 'apiKey',
    in: 'query',
    name: 'private_token',
    description: 'The private token as a parameter (of the query, or of a form or JSON body).',
  },
  AccessTokenParam: {
    type: 'apiKey',
    in: 'query',
    name: 'access_token',
    description: 'An OAuth 2 access token as a parameter (of the query, or of a form or JSON body).',
  },
  OAuthBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'Authorization: Bearer with an OAuth 2 access token from POST /oauth/token (or a private token).',
  },
};

/** Any one of them. */
export const security = Object.keys(securitySchemes).map((name) => ({ [name]: [] }));

export const parameters = {
  Sudo: {
    name: 'SUDO',
    in: 'header',
    description:
      "An admin acts as this user (id or username): 403 for anyone else's credentials, 404 for no such user.",
    schema: { type: 'string' },
  },
  SudoParam: {
    name: 'sudo',
    in: 'query',
    description: 'SUDO as a parameter (of the query, or of a form or JSON body).',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'An ETag the caller has: 304 while the answer is still that version.',
    schema: { type: 'string' },
  },
};

export const sudoParameters = [ref('parameters', 'Sudo'), ref('parameters', 'SudoParam')];
export const conditionalParameters = [ref('parameters', 'IfNoneMatch')];
