import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger';
import express, { type Router } from 'express';
import { Pool } from 'undici';
import { DomainError, ErrorCode } from './errors';
import { ANONYMOUS, PRINCIPAL_HEADER, signPrincipal, verifyPrincipal } from './principal';

/**
 * Service-to-service calls outside the graph (authorization, lookups). The caller signs a system
 * principal naming itself with the shared secret, so only our own processes get in; the pool keeps
 * connections alive between calls.
 */
export function createInternalClient(options: { baseUrl: string; secret: string; caller: string; connections?: number }) {
  const pool = new Pool(options.baseUrl, {
    connections: options.connections ?? 64,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
  });
  const target = new URL(options.baseUrl).host;

  async function call<T>(method: 'POST' | 'PUT', path: string, body: unknown): Promise<T> {
    let statusCode: number;
    let payload: unknown;
    try {
      const response = await pool.request({
        path,
        method,
        headers: {
          'content-type': 'application/json',
          [PRINCIPAL_HEADER]: signPrincipal({ ...ANONYMOUS, system: options.caller }, options.secret),
        },
        body: JSON.stringify(body),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      statusCode = response.statusCode;
      payload = await response.body.json();
    } catch {
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable', { service: target });
    }
    if (statusCode >= 400) {
      const message = (payload as { message?: unknown })?.message;
      throw new Error(`${method} ${target}${path} answered ${statusCode}: ${typeof message === 'string' ? message : ''}`);
    }
    return payload as T;
  }

  return {
    post: <T>(path: string, body: unknown) => call<T>('POST', path, body),
    put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
    close: () => pool.close(),
  };
}

export type InternalClient = ReturnType<typeof createInternalClient>;

/**
 * A router for `/internal/*` endpoints: JSON bodies, callers must present a system principal
 * (a user's principal, even an admin's, is refused), and handler errors become JSON 500s.
 */
export function createInternalRouter(secret: string): Router {
  const router = express.Router();
  router.use('/internal', express.json({ limit: '1mb' }), (req: Request, res: Response, next: NextFunction) => {
    const caller = verifyPrincipal(req.header(PRINCIPAL_HEADER), secret);
    if (!caller?.system) {
      res.status(401).json({ message: '401 Unauthorized' });
      return;
    }
    next();
  });
  return router;
}

/** Ids from an internal request body: positive 32-bit integers only, at most 1,000. */
export const idList = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v) && v > 0 && v < 2 ** 31).slice(0, 1000) : [];

/** Wraps an async internal handler: its result is the JSON answer, a failure a logged JSON 500. */
export const internalHandler =
  (logger: Logger, handle: (body: Record<string, unknown>, req: Request) => Promise<unknown>) =>
  async (req: Request, res: Response) => {
    try {
      res.json(await handle((req.body ?? {}) as Record<string, unknown>, req));
    } catch (error) {
      logger.error({ err: error, path: req.path }, 'internal endpoint failed');
      res.status(500).json({ message: '500 Internal Server Error' });
    }
  };
