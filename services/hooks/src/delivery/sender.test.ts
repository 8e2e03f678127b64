import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSender, MAX_LOGGED_BODY, parseRetryAfter } from './sender';

/** A real receiver on loopback that answers as `handler` says and counts requests. */
async function receiver(
  handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
) {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('sending a delivery', () => {
  const local = createSender({ timeoutMs: 500, allowLocal: true });
  const guarded = createSender({ timeoutMs: 500, allowLocal: false });
  afterAll(async () => {
    await local.close();
    await guarded.close();
  });

  it('never connects to a loopback receiver when local addresses are not allowed, by IP or by name', async () => {
    const r = await receiver((_req, res) => res.end('ok'));
    try {
      for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
        const result = await guarded.send(
          `http://${host}:${r.port}/hook`,
          { 'content-type': 'application/json' },
          '{}',
        );
        expect(result).toMatchObject({
          ok: false,
          retryable: false,
          statusCode: null,
          error: 'blocked: the URL points to an internal address',
        });
      }
      expect(r.hits()).toBe(0);
      expect((await local.send(`http://127.0.0.1:${r.port}/hook`, {}, '{}')).ok).toBe(true);
      expect(r.hits()).toBe(1);
    } finally {
      await r.close();
    }
  });

  it('posts the body with the headers, keeps the first 4 KiB of the answer, and follows no redirect', async () => {
    let seen: { method?: string; headers?: import('node:http').IncomingHttpHeaders; body?: string } = {};
    const r = await receiver((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString() };
        if (req.url === '/redirect') {
          res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
          return;
        }
        res.writeHead(200, { 'x-answer': 'yes' }).end('x'.repeat(10_000));
      });
    });
    try {
      const result = await local.send(
        `http://user:p%40ss@127.0.0.1:${r.port}/hook`,
        { 'x-gitlab-event': 'Push Hook' },
        '{"a":1}',
      );
      expect(result).toMatchObject({
        ok: true,
        statusCode: 200,
        error: null,
        responseHeaders: expect.objectContaining({ 'x-answer': 'yes' }),
      });
      expect(result.responseBody).toHaveLength(MAX_LOGGED_BODY);
      expect(seen).toMatchObject({
        method: 'POST',
        body: '{"a":1}',
        headers: expect.objectContaining({
          'x-gitlab-event': 'Push Hook',
          authorization: `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
        }),
      });
      const redirected = await local.send(`http://127.0.0.1:${r.port}/redirect`, {}, '{}');
      expect(redirected).toMatchObject({ ok: false, retryable: false, statusCode: 302 });
      expect(r.hits()).toBe(2);
    } finally {
      await r.close();
    }
  });

  it('retries no answer, 5xx and 429 (with Retry-After), but not other 4xx', async () => {
    const r = await receiver((req, res) => {
      if (req.url === '/slow') return; // never answers
      const status = Number(req.url!.slice(1));
      res.writeHead(status, status === 429 ? { 'retry-after': '7' } : {}).end();
    });
    try {
      expect(await local.send(`http://127.0.0.1:${r.port}/503`, {}, '')).toMatchObject({
        ok: false,
        retryable: true,
        statusCode: 503,
      });
      expect(await local.send(`http://127.0.0.1:${r.port}/429`, {}, '')).toMatchObject({
        retryable: true,
        retryAfterMs: 7000,
      });
      expect(await local.send(`http://127.0.0.1:${r.port}/404`, {}, '')).toMatchObject({
        retryable: false,
        statusCode: 404,
      });
      const slow = await local.send(`http://127.0.0.1:${r.port}/slow`, {}, '');
      expect(slow).toMatchObject({ ok: false, retryable: true, statusCode: null, error: 'timed out after 500 ms' });
      expect(slow.durationMs).toBeGreaterThanOrEqual(450);
    } finally {
      await r.close();
    }
    const refused = await local.send(`http://127.0.0.1:${r.port}/gone`, {}, '');
    expect(refused).toMatchObject({ ok: false, retryable: true, error: 'ECONNREFUSED' });
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
