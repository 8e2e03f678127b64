import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  /** Date.now() when the request arrived. */
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, for signature checks. */
  text: string;
  body: any;
}

/** What the receiver answers a request with (default 200 "ok"). */
export type Responder = (
  request: ReceivedHook,
  index: number,
) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

/**
 * A real HTTP webhook receiver on loopback: records every request per path and answers as told,
 * per path (so one receiver serves many hooks, each under its own path).
 */
export async function startReceiver() {
  const received: ReceivedHook[] = [];
  const responders = new Map<string, Responder>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const hook: ReceivedHook = { at: Date.now(), path: req.url ?? '/', headers: req.headers, text, body };
      received.push(hook);
      const index = received.filter((r) => r.path === hook.path).length - 1;
      const answer = responders.get(hook.path)?.(hook, index) ?? { status: 200, body: 'ok' };
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** A URL of its own for one hook. */
    url: (path: string) => `${base}/${path}`,
    at: (path: string) => received.filter((r) => r.path === `/${path}`),
    all: () => received,
    respond: (path: string, responder: Responder) => responders.set(`/${path}`, responder),
    /** Waits until `path` received at least `count` requests (or fails after `timeoutMs`). */
    async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedHook[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.filter((r) => r.path === `/${path}`).length < count) {
        if (Date.now() > deadline)
          throw new Error(
            `${path}: ${received.filter((r) => r.path === `/${path}`).length} of ${count} deliveries after ${timeoutMs} ms`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received.filter((r) => r.path === `/${path}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
