import { createHash } from 'node:crypto';
import { clientAddress, type Logger, type NetworkList } from '@hub/common';
import type { Request, RequestHandler, Response } from 'express';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** The settings of the limits, as the configuration table names them; 0 turns a limit off. */
export interface AbuseLimitSettings {
  REDIS_URL: string;
  RATE_LIMIT_WINDOW_S: number;
  RATE_LIMIT_PER_USER: number;
  RATE_LIMIT_PER_IP: number;
  AUTH_FAILURE_WINDOW_S: number;
  AUTH_FAILURES_PER_IP: number;
  AUTH_FAILURES_PER_LOGIN: number;
  AUTH_RETRY_INTERVAL_S: number;
  RATE_LIMIT_ALLOWLIST: NetworkList;
}

/**
 * Set on `res.locals` when the request's address (or, for a sign-in, its login) has spent its
 * failed-authentication budget: the seconds until it may fail again. The request still runs, so a
 * valid credential passes; the door answers a refused one 429 with this Retry-After instead of 401.
 * A sign-in's budget is counted as it arrives; a credential's is only asked for when the
 * credential is refused (FAILURE_BUDGET_LOOKUP), so a valid token costs no Redis round trip for it.
 */
export const FAILURE_BUDGET_SPENT = 'failureBudgetSpentFor';
const FAILURE_BUDGET_LOOKUP = 'failureBudgetLookup';

/** The seconds a sign-in's refusal should be answered 429 for instead of 401, or 0 (known as it arrived). */
export const failureBudgetWait = (res: Response): number => {
  const wait: unknown = res.locals[FAILURE_BUDGET_SPENT];
  return typeof wait === 'number' ? wait : 0;
};

/**
 * The seconds any refusal of credentials should be answered 429 for instead of 401, or 0: a
 * sign-in's as it arrived, a credential's asked for now (once per request).
 */
export const failureBudgetWaitNow = async (res: Response): Promise<number> => {
  const known = failureBudgetWait(res);
  const lookup: unknown = res.locals[FAILURE_BUDGET_LOOKUP];
  if (known > 0 || typeof lookup !== 'function') return known;
  const wait = (await (lookup as () => Promise<number>)()) ?? 0;
  res.locals[FAILURE_BUDGET_SPENT] = wait;
  res.locals[FAILURE_BUDGET_LOOKUP] = undefined;
  return wait;
};

const REQUEST_REFUND = 'refundRequest';

/**
 * Gives back the request the door counted for this answer, and says so in RateLimit-Remaining:
 * a 304 (the caller's copy is current) costs no budget, as on GitHub.
 */
export const refundRequest = (res: Response): void => {
  const refund: unknown = res.locals[REQUEST_REFUND];
  if (typeof refund === 'function') refund();
};

/** Where the caller stands, as the RateLimit-* headers of its answer say; null while no limit applies. */
export const rateLimitStanding = (res: Response) => {
  const limit = res.getHeader('RateLimit-Limit');
  if (limit === undefined) return null;
  return {
    limit: Number(limit),
    remaining: Number(res.getHeader('RateLimit-Remaining')),
    resetSeconds: Number(res.getHeader('RateLimit-Reset')),
  };
};

/** A count per key over a fixed window, kept in Redis so that every replica shares it. */
interface Budget {
  /** Counts one; the seconds until the key may go on, 0 while it is within its budget. */
  take(key: string): Promise<number>;
  /** Counts one, and says where the key stands: what `RateLimit-*` headers tell the caller. */
  count(key: string): Promise<Standing>;
  /** The seconds until the key may go on, without counting. */
  waitFor(key: string): Promise<number>;
  giveBack(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

/** Where a key stands in its window after a request: the IETF draft's RateLimit-* fields, and the wait. */
export interface Standing {
  limit: number;
  remaining: number;
  /** Seconds until the window starts again. */
  reset: number;
  /** Seconds until the key may go on; 0 within its budget. */
  wait: number;
}

const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

function budget(redis: Redis, name: string, points: number, windowSeconds: number, logger: Logger): Budget | null {
  if (points <= 0) return null;
  // Doors and settings count apart: a replica started with other limits (a test's, a canary's)
  // neither spends nor reads another's counts.
  const options = { keyPrefix: `limits:${name}:${points}:${windowSeconds}`, points, duration: windowSeconds };
  const limiter = new RateLimiterRedis({
    ...options,
    storeClient: redis,
    // While Redis is away each replica counts on its own: the limits loosen by the number of
    // replicas, but requests neither wait for Redis nor fail with it.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
    // A key over its budget is refused from memory until its window ends: a flood from one
    // client costs no Redis round trip per request.
    inMemoryBlockOnConsumed: points + 1,
  });
  const quietly = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) logger.warn({ err: error, limit: name }, `rate limit ${what} failed`);
    }
  };
  const standing = (res: RateLimiterRes, refused: boolean): Standing => ({
    limit: points,
    remaining: Math.max(0, res.remainingPoints),
    reset: seconds(res),
    wait: refused ? seconds(res) : 0,
  });
  const count = async (key: string): Promise<Standing> => {
    try {
      return standing(await limiter.consume(key), false);
    } catch (error) {
      if (error instanceof RateLimiterRes) return standing(error, true);
      logger.warn({ err: error, limit: name }, 'rate limit unavailable; request let through');
      return { limit: points, remaining: points, reset: windowSeconds, wait: 0 };
    }
  };
  return {
    count,
    take: async (key) => (await count(key)).wait,
    async waitFor(key) {
      try {
        const res = await limiter.get(key);
        return res && res.consumedPoints >= points ? seconds(res) : 0;
      } catch (error) {
        logger.warn({ err: error, limit: name }, 'rate limit unavailable; request let through');
        return 0;
      }
    },
    giveBack: (key) => quietly('refund', () => limiter.reward(key, 1)),
    clear: (key) => quietly('reset', () => limiter.delete(key)),
  };
}

/** What a request presents, as each front door reads it. */
export interface RequestIdentity {
  /** A digest of the credentials presented (token, bearer or basic), when there are any. */
  credential?: string;
  /** For a sign-in with a password: the login it names (lower-cased), or '' when none. */
  signIn?: { login: string };
}

/**
 * The budget's key: the digest (never the token, which Redis and memory must not keep) of the one
 * credential identity will use. Callers list what was presented in identity's order (private
 * token, then basic, then bearer); the first present wins, so junk beside a valid token cannot
 * open a fresh budget per request.
 */
export const credentialKey = (...values: Array<string | undefined>) => {
  const used = values.find((v): v is string => !!v);
  return used ? createHash('sha256').update(used).digest('base64url') : undefined;
};

/**
 * Rate limits for a front door (the facade, the gateway's `/graphql`), shared across replicas
 * through Redis, keyed by the client address the door's `trust proxy` decides (TRUSTED_PROXIES);
 * addresses of RATE_LIMIT_ALLOWLIST pass untouched:
 * - requests per credential (a user's token) and, without one, per address, over
 *   RATE_LIMIT_WINDOW_S;
 * - failed authentications per address and per login + address over AUTH_FAILURE_WINDOW_S, against
 *   password and token guessing. A sign-in takes from both budgets before it runs (a burst of
 *   parallel guesses cannot all start before the first one fails) and gets them back unless its
 *   credentials are refused (401, or what the door's `failed` says); a request refused for its
 *   token takes from the address's budget.
 * Past a failure budget nothing valid is locked out (behind a load balancer, one script with a stale
 * token would otherwise lock out everyone): credentials are still checked, and refused ones get 429.
 * A login past its own budget is checked once per AUTH_RETRY_INTERVAL_S from that address, so its
 * owner gets in while a guesser gets one try per interval.
 * A refusal is a 429 with Retry-After; `refuse` writes the body in the door's own shape.
 */
export function createAbuseLimits(door: string, settings: AbuseLimitSettings, logger: Logger) {
  // Its own connection without an offline queue: while Redis is away a command fails at once
  // (the in-memory insurance takes over) instead of holding the request.
  const redis = new Redis(settings.REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // The counts of concurrent requests go out in one write.
    enableAutoPipelining: true,
  });
  redis.on('error', () => {}); // reported per command above; ioredis would print every reconnect
  const perUser = budget(redis, `${door}:user`, settings.RATE_LIMIT_PER_USER, settings.RATE_LIMIT_WINDOW_S, logger);
  const perIp = budget(redis, `${door}:ip`, settings.RATE_LIMIT_PER_IP, settings.RATE_LIMIT_WINDOW_S, logger);
  // Failed authentications count alike at every door: guesses spread over the facade and the
  // gateway add up.
  const failuresPerIp = budget(redis, 'auth-ip', settings.AUTH_FAILURES_PER_IP, settings.AUTH_FAILURE_WINDOW_S, logger);
  const failuresPerLogin = budget(
    redis,
    'auth-login',
    settings.AUTH_FAILURES_PER_LOGIN,
    settings.AUTH_FAILURE_WINDOW_S,
    logger,
  );
  // Past a login's failure budget: one password check per interval for that login and address.
  const retriesPerLogin = budget(redis, 'auth-retry-login', 1, settings.AUTH_RETRY_INTERVAL_S, logger);

  return {
    middleware(door: {
      identify: (req: Request) => RequestIdentity;
      refuse: (res: Response, retryAfterSeconds: number) => void;
      /** Whether a sign-in's answer refused its password; a 401 unless the door knows better. */
      failed?: (res: Response) => boolean;
      /**
       * Whether an authenticated request's answer refused its token; a 401 unless the door knows
       * better (a 401 from a rule to a known user is not a guess).
       */
      refusedCredentials?: (res: Response) => boolean;
    }): RequestHandler {
      const failed = door.failed ?? ((res: Response) => res.statusCode === 401);
      const refusedCredentials = door.refusedCredentials ?? ((res: Response) => res.statusCode === 401);
      return async (req, res, next) => {
        const refuse = (wait: number) => {
          res.setHeader('Retry-After', String(wait));
          door.refuse(res, wait);
        };
        const ip = clientAddress(req);
        if (settings.RATE_LIMIT_ALLOWLIST.has(ip)) return next();
        const { credential, signIn } = door.identify(req);
        const requests = credential ? perUser : perIp;
        const loginKey = signIn && `${signIn.login}\0${ip}`;
        // Every count a request needs is asked for at once: one round trip to Redis, not two or three.
        const [standing, ipFailureWait, loginFailureWait] = await Promise.all([
          requests?.count(credential ?? ip),
          signIn ? (failuresPerIp?.take(ip) ?? 0) : 0,
          loginKey ? (failuresPerLogin?.take(loginKey) ?? 0) : 0,
        ]);
        if (credential && failuresPerIp) res.locals[FAILURE_BUDGET_LOOKUP] = () => failuresPerIp.waitFor(ip);
        // Every answer says where the caller stands, as GitLab and the IETF draft name it.
        if (standing) {
          res.setHeader('RateLimit-Limit', String(standing.limit));
          res.setHeader('RateLimit-Remaining', String(standing.remaining));
          res.setHeader('RateLimit-Reset', String(standing.reset));
          res.locals[REQUEST_REFUND] = () => {
            res.locals[REQUEST_REFUND] = undefined;
            void requests?.giveBack(credential ?? ip);
            res.setHeader('RateLimit-Remaining', String(Math.min(standing.limit, standing.remaining + 1)));
          };
        }
        const requestWait = standing?.wait ?? 0;
        if (requestWait > 0) {
          // A sign-in refused for its request budget alone never tried its password: the failure
          // points it took go back.
          if (loginKey && ipFailureWait === 0 && loginFailureWait === 0) {
            void failuresPerIp?.giveBack(ip);
            void failuresPerLogin?.giveBack(loginKey);
          }
          return refuse(requestWait);
        }
        const spent = Math.max(ipFailureWait, loginFailureWait);
        if (spent > 0) {
          // A login past its own budget is checked once per interval; between, nothing is tried.
          // Past the address's budget alone every password is still checked: git sends its
          // credentials with each of a clone's requests, and a shared address (a NAT, an ingress)
          // must not make one user's clone wait on another's failures. Each login keeps its own
          // budget there, so guessing one login stays slow.
          if (loginKey && loginFailureWait > 0) {
            const retryWait = await (retriesPerLogin?.take(loginKey) ?? 0);
            if (retryWait > 0) return refuse(retryWait);
          }
          res.locals[FAILURE_BUDGET_SPENT] = spent;
        }

        if (loginKey) {
          // 'close', not 'finish': a client that goes away before its answer is written never
          // learns whether the password was right, so its points go back like a success's.
          res.on('close', () => {
            if (res.writableFinished && failed(res)) return;
            void failuresPerIp?.giveBack(ip);
            if (res.writableFinished) void failuresPerLogin?.clear(loginKey);
            else void failuresPerLogin?.giveBack(loginKey);
          });
        } else if (credential && failuresPerIp) {
          res.on('finish', () => {
            if (refusedCredentials(res)) void failuresPerIp.take(ip);
          });
        }
        next();
      };
    },
    /**
     * For doors express does not serve (the subscriptions' WebSocket): a credential refused to a
     * client at `ip` takes from the address's failure budget; the seconds to wait once it is spent.
     */
    credentialRefused: async (ip: string): Promise<number> => {
      if (settings.RATE_LIMIT_ALLOWLIST.has(ip) || !failuresPerIp) return 0;
      return failuresPerIp.take(ip);
    },
    close: async () => {
      redis.disconnect();
    },
  };
}

export type AbuseLimits = ReturnType<typeof createAbuseLimits>;
