import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { clientAddress } from './client-address';
import type { Logger } from './logger';
import { acceptRequestId, REQUEST_ID_HEADER, withRequestId } from './request-id';
import { flushTracing, markRequestSpan } from './trace-context';

export type ReadinessChecks = Record<string, () => Promise<unknown>>;

const READINESS_TIMEOUT_MS = 2000;

/**
 * An express app with the three endpoints every process serves:
 * `/healthz` (the process is alive), `/readyz` (its dependencies answer) and `/metrics`.
 * With a logger, each request gets a line (debug; warn for a 5xx) carrying its trace and request ids.
 * Every request runs as part of its request id (request-id.ts), echoed in `X-Request-Id`.
 */
export function createObservedApp(options: { service: string; readiness: ReadinessChecks; logger?: Logger }): {
  app: Express;
  registry: Registry;
} {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(options.readiness).map(async ([name, check]) => {
        try {
          await withTimeout(check(), READINESS_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, (error as Error).message || 'failed'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  app.use((req, res, next) => {
    const end = duration.startTimer();
    // Read now: by 'finish' a kept-alive socket may already be detached from the request.
    const client = clientAddress(req);
    const requestId = acceptRequestId(req.headers[REQUEST_ID_HEADER]);
    res.setHeader('X-Request-Id', requestId);
    markRequestSpan(requestId);
    res.on('finish', () => {
      // The matched route pattern, not the raw path, keeps label cardinality bounded.
      const route = (req.route?.path as string | undefined) ?? req.baseUrl ?? 'unmatched';
      const seconds = end({ method: req.method, route: route || 'unmatched', status: String(res.statusCode) });
      // The route pattern, never the URL: query strings may carry private tokens.
      const line = {
        method: req.method,
        route: `${req.baseUrl}${req.route?.path ?? ''}` || 'unmatched',
        status: res.statusCode,
        // As the door's `trust proxy` (TRUSTED_PROXIES) decides it; the peer elsewhere.
        client,
        ms: Math.round(seconds * 1000),
        // 'finish' runs outside the request's async context, so the id is named here.
        request_id: requestId,
      };
      if (res.statusCode >= 500) options.logger?.warn(line, 'request failed');
      else options.logger?.debug(line, 'request');
    });
    withRequestId(requestId, next);
  });
  return { app, registry };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Listens on `port` (0 picks a free one). Keep-alive outlives the callers' pools (undici's
 * default is 4 s idle) so an upstream never writes into a socket this side just closed.
 */
export async function listen(handler: Express, port: number, host = '0.0.0.0'): Promise<Server> {
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

export const boundPort = (server: Server) => (server.address() as AddressInfo).port;

/** Stops accepting connections, lets in-flight requests finish, then closes idle sockets. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/**
 * Runs `closers` in order on SIGTERM or SIGINT, then exits; a second signal or the grace period
 * running out exits at once. Kubernetes sends SIGTERM; Ctrl-C sends SIGINT.
 */
export function onShutdown(logger: Logger, graceMs: number, closers: Array<() => Promise<unknown>>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown grace period exceeded; exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    for (const close of closers) {
      try {
        await close();
      } catch (error) {
        logger.warn({ err: error }, 'error during shutdown');
      }
    }
    // Spans still batched would die with the process.
    await flushTracing().catch(() => {});
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Logs a start-up failure with context and exits non-zero, so the supervisor sees it. */
export function exitOnStartupFailure(logger: Logger) {
  return (error: unknown) => {
    logger.fatal({ err: error }, 'failed to start');
    process.exit(1);
  };
}
