import type { Request } from 'express';
import { v3Error } from './v3-errors';

// Tokens and usernames are printable ASCII of at most 255 characters; anything else matches
// nobody, and is not passed on: a 100 KB "token" from a parameter would make the principal
// lookup's body too large for identity (a 503 instead of the 401 it is).
const PRINTABLE = /^[\x21-\x7e]{1,255}$/;
const INVALID_TOKEN = 'invalid';

/**
 * The headers the gateway reads credentials from. The spec lets clients send them as headers or
 * as parameters (query, form or JSON body); the facade moves the parameters into headers.
 */
export function credentialHeaders(req: Request): Record<string, string> {
  const param = (name: string): string | undefined => {
    for (const source of [req.body, req.query] as Array<Record<string, unknown> | undefined>) {
      const value = source && typeof source === 'object' ? source[name] : undefined;
      if (typeof value === 'string' && value !== '') return value;
      if (typeof value === 'number') return String(value);
    }
    return undefined;
  };
  const headers: Record<string, string> = {};
  const privateToken = req.header('private-token') || param('private_token');
  const accessToken = param('access_token');
  const authorization = req.header('authorization');
  const sudo = req.header('sudo') || param('sudo');
  const token = (value: string) => (PRINTABLE.test(value) ? value : INVALID_TOKEN);
  if (privateToken) headers['private-token'] = token(privateToken);
  if (accessToken) headers.authorization = `Bearer ${token(accessToken)}`;
  else if (authorization && /^Bearer\s+\S+$/i.test(authorization))
    headers.authorization = `Bearer ${token(authorization.replace(/^Bearer\s+/i, ''))}`;
  if (sudo) {
    // No user can have such a name (usernames are short ASCII): the spec's 404 for an unknown sudo target.
    if (!PRINTABLE.test(sudo)) throw v3Error(404, `404 Not Found: No user id or username for: ${sudo}`);
    headers.sudo = sudo;
  }
  return headers;
}

export const presentsCredentials = (headers: Record<string, string>) =>
  Boolean(headers['private-token'] || headers.authorization);
