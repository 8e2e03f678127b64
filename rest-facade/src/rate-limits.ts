import { CREDENTIALS_REFUSED, decodeBasicAuth } from '@hub/common';
import { credentialKey, failureBudgetWait, type AbuseLimits } from '@hub/gateway';
import type { Request, RequestHandler } from 'express';
import { credentialHeaders } from './credentials';

/** The two ways to sign in with a password, and the parameter naming the login in each. */
const SIGN_INS: Record<string, (params: Record<string, unknown>) => unknown> = {
  // POST /session: `email` wins over `login`, as the route reads them.
  '/api/v3/session': (params) => params.email ?? params.login,
  '/oauth/token': (params) => params.username,
};

export function signInOf(req: Request): { login: string } | undefined {
  // Express matches routes case-insensitively and with an optional trailing slash, so the path
  // is compared in that form: /api/v3/SESSION/ signs in as /api/v3/session does.
  const path = (req.baseUrl + req.path).toLowerCase().replace(/\/+$/, '');
  const loginOf = req.method === 'POST' ? SIGN_INS[path] : undefined;
  if (!loginOf) return undefined;
  const login = loginOf({
    ...(req.query as Record<string, unknown>),
    ...(typeof req.body === 'object' ? req.body : {}),
  });
  return { login: typeof login === 'string' ? login.trim().toLowerCase() : '' };
}

/** git's basic credentials: a login with a password or a private token, tried on every request. */
function basicLogin(req: Request): string | undefined {
  return decodeBasicAuth(req.header('authorization'))?.login.trim().toLowerCase();
}

/**
 * The same limits for git over HTTP, where a password or token comes with every request: each
 * request with basic credentials counts as a sign-in for that login (a success gives it back), so
 * guessing a password through git is stopped as through POST /session. Other paths pass.
 */
export function gitRateLimits(limits: AbuseLimits): RequestHandler {
  const limit = limits.middleware({
    identify: (req) => {
      const login = basicLogin(req);
      return login === undefined ? {} : { signIn: { login } };
    },
    refuse: (res) => {
      res.status(429).type('text/plain').send('Too Many Requests\n');
    },
    // Past the budget, refused credentials are answered 429 (git-http.ts): still a failure.
    failed: (res) => res.statusCode === 401 || (res.statusCode === 429 && failureBudgetWait(res) > 0),
  });
  return (req, res, next) =>
    /\/(info\/refs|git-upload-pack|git-receive-pack)$/.test(req.path) ? limit(req, res, next) : next();
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
      let headers: Record<string, string>;
      try {
        headers = credentialHeaders(req);
      } catch {
        // An impossible sudo value: the route answers it; the token still counts.
        headers = {
          'private-token': req.header('private-token') ?? '',
          authorization: req.header('authorization') ?? '',
        };
      }
      return { credential: credentialKey(headers['private-token'], headers.authorization) };
    },
    refuse: (res) => {
      res.status(429).json({ message: '429 Too Many Requests' });
    },
    // The error handler marks the 401s that refused the token itself (app.ts).
    refusedCredentials: (res) => res.locals[CREDENTIALS_REFUSED] === true,
    // Past the budget, a wrong password is answered 429 (app.ts): still a failure.
    failed: (res) => res.statusCode === 401 || (res.statusCode === 429 && failureBudgetWait(res) > 0),
  });
}
