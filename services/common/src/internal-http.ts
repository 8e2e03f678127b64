import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger';
import express, { type Router } from 'express';
import { Pool } from 'undici';
import { isDatabaseUnavailable } from './db';
import { DomainError, ErrorCode } from './errors';
import type { z } from 'zod';
import type { Endpoint, RequestOf, ResponseOf } from './contracts/define';
import { ANONYMOUS, PRINCIPAL_HEADER, signPrincipal, verifyPrincipal } from './principal';
import { requestIdHeaders } from './request-id';

/**
 * Service-to-service calls outside the graph (authorization, lookups). The caller signs a system
 * principal naming itself with the shared secret, so only our own processes get in; the pool keeps
 * connections alive between calls.
 */
export function createInternalClient(options: {
  baseUrl: string;
  secret: string;
  caller: string;
  connections?: number;
}) {
  const pool = new Pool(options.baseUrl, {
    connections: options.connections ?? 64,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
  });
  const target = new URL(options.baseUrl).host;

  /** POSTs to an endpoint of the target's contract; the answer is checked against it. */
  async function call<E extends Endpoint<z.ZodType, z.ZodType>>(
    endpoint: E,
    body: RequestOf<E>,
  ): Promise<ResponseOf<E>> {
    const { path } = endpoint;
    let statusCode: number;
    let payload: unknown;
    try {
      const response = await pool.request({
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [PRINCIPAL_HEADER]: signPrincipal({ ...ANONYMOUS, system: options.caller }, options.secret),
          ...requestIdHeaders(),
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
    // The target is up but what it needs is not (its database restarting): unavailable, as if down.
    if (statusCode === 503)
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable', { service: target });
    if (statusCode >= 400) {
      const message = (payload as { message?: unknown })?.message;
      throw new Error(`POST ${target}${path} answered ${statusCode}: ${typeof message === 'string' ? message : ''}`);
    }
    const answer = endpoint.response.safeParse(payload);
    if (!answer.success)
      throw new Error(`POST ${target}${path} answered outside its contract: ${answer.error.issues[0]?.message}`);
    return answer.data as ResponseOf<E>;
  }

  return { call, close: () => pool.close() };
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

/**
 * Serves an endpoint of this service's contract on an internal router: a body outside the
 * contract is a 400, the handler's result the JSON answer, its database (or a service it needs)
 * unavailable a 503, any other failure a logged JSON 500.
 */
export function serveEndpoint<E extends Endpoint<z.ZodType, z.ZodType>>(
  router: Router,
  endpoint: E,
  logger: Logger,
  handle: (body: z.output<E['request']>) => Promise<z.input<E['response']>>,
): void {
  router.post(endpoint.path, async (req: Request, res: Response) => {
    const body = endpoint.request.safeParse(req.body ?? {});
    if (!body.success) {
      res
        .status(400)
        .json({ message: `400 (Bad request) ${body.error.issues[0]?.path.join('.') || 'body'} is invalid` });
      return;
    }
    try {
      res.json(await handle(body.data as z.output<E['request']>));
    } catch (error) {
      if (
        isDatabaseUnavailable(error) ||
        (error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE)
      ) {
        logger.warn({ err: error, path: req.path }, 'internal endpoint unavailable');
        res.status(503).json({ message: '503 Service Unavailable' });
        return;
      }
      logger.error({ err: error, path: req.path }, 'internal endpoint failed');
      res.status(500).json({ message: '500 Internal Server Error' });
    }
  });
}
