import { randomBytes } from 'node:crypto';
import { INTERNAL_GRAPHQL_PATH, LIMITED_HEADER, signLimited } from '@hub/common';
import { request } from 'undici';
import { stackInfo } from './stack-info';

export const stack = stackInfo();

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  /** JSON body (objects) or a form body (URLSearchParams). */
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

/** One HTTP call to the facade (`path` below /api/v3, or absolute from the server root with `root:`). */
export async function api<T = any>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const base = path.startsWith('root:') ? stack.baseUrl : stack.restUrl;
  const url = new URL(base + path.replace(/^root:/, ''));
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? stack.rootToken : options.token;
  if (token) headers['PRIVATE-TOKEN'] = token;
  let body: string | undefined;
  if (options.body instanceof URLSearchParams) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = options.body.toString();
  } else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  // undici's request, not fetch: v3 clients send bodies with GET too, and fetch refuses that.
  const response = await request(url, { method: method as 'GET', headers, body });
  const text = await response.body.text();
  const responseHeaders = new Headers();
  for (const [key, value] of Object.entries(response.headers)) {
    if (value !== undefined) responseHeaders.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: tests that care assert on `text`
  }
  return { status: response.statusCode, body: parsed as T, headers: responseHeaders, text };
}

/** A name no other test (or earlier run) uses. */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

/** Creates a user as root and signs it in, for tests that need a second party. */
export async function createUser(overrides: Record<string, unknown> = {}): Promise<TestUser> {
  const username = unique('u');
  const password = 'password-' + randomBytes(4).toString('hex');
  const created = await api('POST', '/users', {
    body: { email: `${username}@example.com`, password, username, name: `User ${username}`, ...overrides },
  });
  if (created.status !== 201) throw new Error(`creating a user failed: ${created.status} ${created.text}`);
  const session = await api('POST', '/session', { token: null, body: { login: username, password } });
  if (session.status !== 201) throw new Error(`signing in failed: ${session.status} ${session.text}`);
  return { id: created.body.id, username, email: created.body.email, password, token: session.body.private_token };
}

/** POST to the gateway's /graphql directly, as internal teams do. */
export async function graphql<T = any>(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await fetch(stack.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: T; errors?: any[] } };
}

/**
 * POST to the gateway's internal contract (the facade's: v3's page numbers, shard names and
 * authorization shortcuts), as the facade does: with its signed note. `gateway` picks another
 * stack's gateway (its /graphql URL and shared secret).
 */
export async function internalGraphql<T = any>(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  gateway = { graphqlUrl: stack.graphqlUrl, secret: stack.principalSecret },
) {
  const response = await fetch(gateway.graphqlUrl.replace(/\/graphql$/, INTERNAL_GRAPHQL_PATH), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [LIMITED_HEADER]: signLimited('127.0.0.1', gateway.secret),
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: T; errors?: any[] } };
}

// Kept where the tests of the shared stack import it from; it needs no stack.
export { eventually } from './eventually';

export interface TestProject {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  [field: string]: unknown;
}

/** Creates a project as `token`'s user (root by default) with a unique name. */
export async function createProject(
  token: string = stack.rootToken,
  attrs: Record<string, unknown> = {},
): Promise<TestProject> {
  const res = await api('POST', '/projects', { token, body: { name: unique('proj'), ...attrs } });
  if (res.status !== 201) throw new Error(`creating a project failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Adds a team member as root. */
export async function addMember(projectId: number, userId: number, accessLevel: number): Promise<void> {
  const res = await api('POST', `/projects/${projectId}/members`, {
    body: { user_id: userId, access_level: accessLevel },
  });
  if (res.status !== 201) throw new Error(`adding a member failed: ${res.status} ${res.text}`);
}

/** Asserts GitLab v3's pagination headers on a list response. */
export function expectPaginationHeaders(res: ApiResponse, total: number, perPage = 20): void {
  if (res.headers.get('x-total') !== String(total))
    throw new Error(`X-Total ${res.headers.get('x-total')}, expected ${total}`);
  if (res.headers.get('x-per-page') !== String(perPage))
    throw new Error(`X-Per-Page ${res.headers.get('x-per-page')}, expected ${perPage}`);
  const link = res.headers.get('link') ?? '';
  if (!link.includes('rel="first"') || !link.includes('rel="last"'))
    throw new Error(`Link header without first/last: ${link}`);
}
