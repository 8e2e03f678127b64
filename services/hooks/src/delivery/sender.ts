import { isIP } from 'node:net';
import { hostOf, isInternalAddress, publicOnlyLookup } from '@hub/common';
import { Agent, request } from 'undici';

/** How much of an answer the delivery log keeps. */
export const MAX_LOGGED_BODY = 4096;

export interface SendResult {
  ok: boolean;
  /** Worth another attempt: no answer, a 5xx or a 429. */
  retryable: boolean;
  statusCode: number | null;
  error: string | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  durationMs: number;
  /** What the receiver asked for in Retry-After, in ms. */
  retryAfterMs: number | null;
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const flatHeaders = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );

/** Reads at most `limit` bytes of a body, then lets the rest go (the connection stays reusable when it can). */
async function readPrefix(body: AsyncIterable<Buffer> & { destroy?: () => void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) chunks.push(chunk);
    size += chunk.length;
    if (size >= limit * 16) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/**
 * Posts hook payloads. Connections are kept alive per receiver. Unless local addresses are
 * allowed, a socket only ever connects to an address checked as public at that moment (the
 * lookup refuses internal ones; IP literals are checked here), and redirects are never followed.
 */
export function createSender(options: { timeoutMs: number; allowLocal: boolean }) {
  const agent = new Agent({
    keepAliveTimeout: 4_000,
    connections: 32,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs, ...(options.allowLocal ? {} : { lookup: publicOnlyLookup as never }) },
  });

  async function send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failure = (error: string, retryable: boolean): SendResult => ({
      ok: false,
      retryable,
      statusCode: null,
      error,
      responseHeaders: null,
      responseBody: null,
      durationMs: elapsed(),
      retryAfterMs: null,
    });
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return failure('invalid URL', false);
    }
    const host = hostOf(url);
    if (!options.allowLocal && isIP(host) && isInternalAddress(host))
      return failure('blocked: the URL points to an internal address', false);
    const sent = { ...headers };
    // user:password in a hook URL means basic authentication, as GitLab sent it.
    if (url.username || url.password) {
      sent.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    try {
      const response = await request(url, {
        method: 'POST',
        headers: sent,
        body,
        dispatcher: agent,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const responseBody = await readPrefix(response.body, MAX_LOGGED_BODY);
      const responseHeaders = flatHeaders(response.headers);
      const status = response.statusCode;
      const ok = status >= 200 && status < 300;
      return {
        ok,
        retryable: status >= 500 || status === 429,
        statusCode: status,
        error: ok ? null : `HTTP ${status}`,
        responseHeaders,
        responseBody,
        durationMs: elapsed(),
        retryAfterMs: parseRetryAfter(responseHeaders['retry-after']),
      };
    } catch (error) {
      const err = error as Error & { code?: string; cause?: Error & { name?: string } };
      if (err.name === 'InternalAddressError' || err.cause?.name === 'InternalAddressError') {
        return failure('blocked: the URL points to an internal address', false);
      }
      const reason =
        err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT'
          ? `timed out after ${options.timeoutMs} ms`
          : (err.code ?? err.message);
      return failure(reason, true);
    }
  }

  return { send, close: () => agent.close() };
}

export type Sender = ReturnType<typeof createSender>;
