import type { AddressInfo } from 'node:net';
import { createLogger, parseNetworkList } from '@hub/common';
import express, { type Express, type Request, type Response } from 'express';
import {
  createAbuseLimits,
  credentialKey,
  failureBudgetWaitNow,
  type AbuseLimitSettings,
  type RequestIdentity,
} from './abuse-limits';

// With Redis away (nothing listens on port 1), the limits must neither hold requests nor let
// everything through: each replica counts in memory until Redis is back. The limits with Redis
// shared across replicas are in test/e2e/rate-limits.test.ts.

/**
 * Refuses credentials as a door does: 401, or 429 with Retry-After once the failure budget is spent
 * (the request still ran, so a valid credential would have passed).
 */
async function refuseCredentials(res: Response) {
  res.locals.refused = true;
  const wait = await failureBudgetWaitNow(res);
  if (wait > 0) res.setHeader('Retry-After', String(wait));
  res.status(wait > 0 ? 429 : 401).json({});
}

/** The door of the apps below: a token on GET /user, a sign-in on POST /session. */
const identifyUserOrSession = (req: Request): RequestIdentity =>
  req.path === '/session' ? { signIn: { login: String(req.body.login) } } : { credential: req.header('private-token') };

/** The token `bad` and any password but `right` are refused; everything else passes. */
function userAndSessionRoutes(routes: Express) {
  routes.get('/user', async (req, res) => {
    if (req.header('private-token') === 'bad') await refuseCredentials(res);
    else res.status(200).json({});
  });
  routes.post('/session', async (req, res) => {
    if (req.body.password === 'right') res.status(201).json({});
    else await refuseCredentials(res);
  });
}

/** An app behind the limits with Redis away; `routes` adds the app's own answers, the refusal is v3's 429. */
function limitedApp(
  door: string,
  settings: Omit<AbuseLimitSettings, 'REDIS_URL' | 'AUTH_RETRY_INTERVAL_S' | 'RATE_LIMIT_ALLOWLIST'> &
    Partial<AbuseLimitSettings>,
  identify: (req: Request) => RequestIdentity,
  routes: (app: Express) => void,
) {
  const limits = createAbuseLimits(
    door,
    {
      REDIS_URL: 'redis://127.0.0.1:1',
      AUTH_RETRY_INTERVAL_S: 60,
      RATE_LIMIT_ALLOWLIST: parseNetworkList(''),
      ...settings,
    },
    createLogger('test', 'silent'),
  );
  const app = express();
  app.use(express.json());
  app.use(
    limits.middleware({
      identify,
      refuse: (res) => {
        res.status(429).json({ message: '429 Too Many Requests' });
      },
      failed: (res) => res.locals.refused === true,
      refusedCredentials: (res) => res.locals.refused === true,
    }),
  );
  routes(app);
  const server = app.listen(0);
  return {
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: async () => {
      server.close();
      await limits.close();
    },
  };
}

describe('the abuse limits while Redis is away', () => {
  const app = limitedApp(
    'test',
    {
      RATE_LIMIT_WINDOW_S: 60,
      RATE_LIMIT_PER_USER: 3,
      RATE_LIMIT_PER_IP: 10,
      AUTH_FAILURE_WINDOW_S: 60,
      AUTH_FAILURES_PER_IP: 100,
      AUTH_FAILURES_PER_LOGIN: 2,
    },
    identifyUserOrSession,
    userAndSessionRoutes,
  );
  afterAll(() => app.close());

  const statuses = async (count: number, path: string, init: RequestInit = {}) => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) {
      const response = await fetch(app.url(path), init);
      seen.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    return seen;
  };

  it('counts per credential in memory, and says where the caller stands on every answer', async () => {
    const standing: Array<Record<string, string | null>> = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(app.url('/user'), { headers: { 'private-token': 'alice' } });
      standing.push({
        status: String(response.status),
        limit: response.headers.get('ratelimit-limit'),
        remaining: response.headers.get('ratelimit-remaining'),
      });
      expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expect(Number(response.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
    }
    expect(standing).toEqual([
      { status: '200', limit: '3', remaining: '2' },
      { status: '200', limit: '3', remaining: '1' },
      { status: '200', limit: '3', remaining: '0' },
      { status: '429', limit: '3', remaining: '0' },
    ]);
    expect(await statuses(1, '/user', { headers: { 'private-token': 'bob' } })).toEqual([200]);
  });

  it('counts failed sign-ins per login, and a success starts again', async () => {
    const signIn = (password: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'carol', password }),
    });
    expect(await statuses(1, '/session', signIn('wrong'))).toEqual([401]);
    expect(await statuses(1, '/session', signIn('right'))).toEqual([201]);
    // The third failure was checked (the login's one try per interval) and stopped; the right
    // password within the same interval is not even checked.
    expect(await statuses(3, '/session', signIn('wrong'))).toEqual([401, 401, 429]);
    expect(await statuses(1, '/session', signIn('right'))).toEqual([429]);
  });

  it('counts requests without credentials per address (the sign-ins above were six of its ten)', async () => {
    expect(await statuses(5, '/user')).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('the failure points of a sign-in that never tried its password', () => {
  let reached = () => {};
  /** Resolves when the next sign-in gets past the limits to the route. */
  const nextReached = () => new Promise<void>((resolve) => (reached = resolve));
  const app = limitedApp(
    'test-give-back',
    {
      RATE_LIMIT_WINDOW_S: 1,
      RATE_LIMIT_PER_USER: 100,
      RATE_LIMIT_PER_IP: 2,
      AUTH_FAILURE_WINDOW_S: 60,
      AUTH_FAILURES_PER_IP: 100,
      AUTH_FAILURES_PER_LOGIN: 3,
    },
    (req) => ({ signIn: { login: String(req.body.login) } }),
    (routes) => {
      routes.post('/session', (req, res) => {
        reached();
        setTimeout(() => refuseCredentials(res), Number(req.body.delay ?? 0));
      });
    },
  );
  afterAll(() => app.close());
  const signIn = (login: string, delay = 0, signal?: AbortSignal) =>
    fetch(app.url('/session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password: 'wrong', delay }),
      signal,
    });
  // The limits count by the second: these waits are for a window to pass, not for an event.
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('go back when the request budget refused it', async () => {
    expect((await signIn('dave')).status).toBe(401);
    expect((await signIn('dave')).status).toBe(401);
    // The address's two requests a second are spent: refused before the password is looked at.
    expect((await signIn('dave')).status).toBe(429);
    await pause(1100);
    // Had the refusal kept its point, dave's third failure would already be spent.
    expect((await signIn('dave')).status).toBe(401);
    await pause(1100);
    expect((await signIn('dave')).status).toBe(429);
  });

  it('go back when the client leaves before its answer', async () => {
    await pause(1100);
    for (let i = 0; i < 2; i++) {
      const controller = new AbortController();
      const arrival = nextReached();
      const pending = signIn('erin', 300, controller.signal).catch((error: Error) => error);
      await arrival;
      controller.abort();
      expect(await pending).toMatchObject({ name: 'AbortError' });
    }
    await pause(1100); // the answers the aborted requests would have had are past, and the window
    for (const expected of [401, 401]) expect((await signIn('erin')).status).toBe(expected);
    await pause(1100);
    expect((await signIn('erin')).status).toBe(401);
    expect((await signIn('erin')).status).toBe(429);
  });
});

describe('an address past its failure budget', () => {
  const app = limitedApp(
    'test-past-budget',
    {
      RATE_LIMIT_WINDOW_S: 60,
      RATE_LIMIT_PER_USER: 0,
      RATE_LIMIT_PER_IP: 0,
      AUTH_FAILURE_WINDOW_S: 60,
      AUTH_FAILURES_PER_IP: 3,
      AUTH_FAILURES_PER_LOGIN: 0,
      AUTH_RETRY_INTERVAL_S: 1,
    },
    identifyUserOrSession,
    userAndSessionRoutes,
  );
  afterAll(() => app.close());
  const ask = async (path: string, init: RequestInit) => {
    const response = await fetch(app.url(path), init);
    return { status: response.status, retryAfter: Number(response.headers.get('retry-after')) };
  };
  const token = (value: string) => ({ headers: { 'private-token': value } });
  const signIn = (password: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'frank', password }),
  });

  it('stops bad tokens with 429 and lets a valid one through', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await ask('/user', token('bad'))).status);
    expect(answers).toEqual([401, 401, 401, 429, 429]);
    expect((await ask('/user', token('bad'))).retryAfter).toBeGreaterThan(0);
    expect((await ask('/user', token('alice'))).status).toBe(200);
  });

  it('still checks passwords: the right one gets in at once, a wrong one is stopped with 429', async () => {
    expect((await ask('/session', signIn('right'))).status).toBe(201);
    expect(await ask('/session', signIn('wrong'))).toMatchObject({ status: 429 });
    expect((await ask('/session', signIn('right'))).status).toBe(201);
    expect((await ask('/session', signIn('right'))).status).toBe(201);
  });
});

describe('the key of a request budget', () => {
  it('is the credential identity uses, whatever else comes beside it', () => {
    const token = credentialKey('valid-private-token', undefined, 'Bearer junk-1');
    expect(credentialKey('valid-private-token', undefined, 'Bearer junk-2')).toBe(token);
    expect(credentialKey('valid-private-token')).toBe(token);
    // Different credentials, different budgets; nothing presented, no key (the address counts).
    expect(credentialKey(undefined, undefined, 'Bearer one')).not.toBe(
      credentialKey(undefined, undefined, 'Bearer two'),
    );
    expect(credentialKey(undefined, undefined, undefined)).toBeUndefined();
  });
});
