import type { Request } from 'express';

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
  if (privateToken) headers['private-token'] = privateToken;
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  else if (authorization && /^Bearer\s+\S+$/i.test(authorization)) headers.authorization = authorization;
  if (sudo) headers.sudo = sudo;
  return headers;
}

export const presentsCredentials = (headers: Record<string, string>) => Boolean(headers['private-token'] || headers.authorization);
