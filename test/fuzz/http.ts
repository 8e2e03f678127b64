import { Agent, request } from 'undici';

/** A request exactly as it goes on the wire: the fuzz builds paths, queries and bodies itself. */
export interface WireRequest {
  method: string;
  /** Origin-relative target, already encoded (or deliberately not). */
  path: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: unknown;
  ms: number;
}

/** No answer within the time: the no-hang oracle's failure. */
export class Hang extends Error {}

// Pipelining off, a few sockets per worker: each fuzz worker waits for its answer before the next.
const agent = new Agent({ connections: 32, keepAliveTimeout: 10_000 });

/** The longest body a response may have before the fuzz stops reading it (archives of a tiny repository are far smaller). */
const MAX_READ = 32 * 1024 * 1024;

export async function send(origin: string, req: WireRequest, timeoutMs: number): Promise<WireResponse> {
  const started = performance.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Hang(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await request(origin + req.path, {
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body,
      signal: abort.signal,
      dispatcher: agent,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > MAX_READ) break;
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, headers: response.headers, text, json, ms: performance.now() - started };
  } catch (error) {
    if (abort.signal.aborted) throw new Hang(`no answer within ${timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** A JSON call for setting up and inspecting the world (not fuzzed). */
export async function call(
  origin: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<WireResponse> {
  const headers: Record<string, string> = {};
  if (token) headers['private-token'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(origin, { method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) }, 30_000);
}

export async function closeHttp(): Promise<void> {
  await agent.close();
}
