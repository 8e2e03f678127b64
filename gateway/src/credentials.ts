import { decodeBasicAuth } from '@hub/common';
import type { IncomingHttpHeaders } from 'node:http';

/** What a request presents, read from headers as the spec names them (the facade moves parameters into headers). */
export interface PresentedCredentials {
  privateToken?: string;
  /** A Bearer value: an OAuth access token, or a private token from clients that send it so. */
  bearer?: string;
  /** HTTP basic credentials, as git sends them: a login with a password or a private token. */
  basic?: { login: string; secret: string };
  sudo?: string;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

export function readCredentials(headers: IncomingHttpHeaders): PresentedCredentials {
  const authorization = first(headers.authorization);
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return {
    privateToken: first(headers['private-token']),
    bearer,
    basic: basicOf(authorization),
    sudo: first(headers.sudo),
  };
}

function basicOf(authorization: string | undefined): PresentedCredentials['basic'] {
  const basic = decodeBasicAuth(authorization);
  return basic?.login ? basic : undefined;
}

export const hasCredentials = (c: PresentedCredentials) => Boolean(c.privateToken || c.bearer || c.basic);
