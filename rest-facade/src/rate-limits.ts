import { credentialKey, type AbuseLimits } from '@hub/gateway';
import type { Request, RequestHandler } from 'express';
import { credentialHeaders } from './credentials';

/** The two ways to sign in with a password, and the parameter naming the login in each. */
const SIGN_INS: Record<string, (params: Record<string, unknown>) => unknown> = {
  // POST /session: `email` wins over `login`, as the route reads them.
  '/api/v3/session': (params) => params.email ?? params.login,
  '/oauth/token': (params) => params.username,
};

function signInOf(req: Request): { login: string } | undefined {
  const loginOf = req.method === 'POST' ? SIGN_INS[req.baseUrl + req.path] : undefined;
  if (!loginOf) return undefined;
  const login = loginOf({ ...(req.query as Record<string, unknown>), ...(typeof req.body === 'object' ? req.body : {}) });
  return { login: typeof login === 'string' ? login.trim().toLowerCase() : '' };
}

/**
 * The facade's rate limits (gateway/src/abuse-limits.ts): requests per token or address, and
 * failed authentications (password sign-ins, bad tokens). Runs after the body parsers, since
 * tokens and logins may come as parameters; the refusal is v3's JSON message.
 */
export function facadeRateLimits(limits: AbuseLimits): RequestHandler {
  return limits.middleware({
    identify: (req) => {
      const signIn = signInOf(req);
      if (signIn) return { signIn };
      let headers: Record<string, string> = {};
      try {
        headers = credentialHeaders(req);
      } catch {
        // An impossible sudo value: the route answers it; the token still counts.
        headers = { 'private-token': req.header('private-token') ?? '', authorization: req.header('authorization') ?? '' };
      }
      return { credential: credentialKey(headers['private-token'], headers.authorization) };
    },
    refuse: (res) => {
      res.status(429).json({ message: '429 Too Many Requests' });
    },
  });
}
