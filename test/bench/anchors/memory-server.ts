import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { serveOnFreePort, startServerProcess } from './server-process';

/**
 * The one-hop ceiling: a plain Node HTTP server answering, from memory, the very bytes (body and
 * headers) the facade answered once. It runs in a process of its own, as the facade does, so it
 * does not share an event loop with the load generator.
 */
interface Captured {
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

const DROPPED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Takes one answer of `url` as the anchor's bytes. */
export async function capture(url: string, headers: Record<string, string>): Promise<Captured> {
  const response = await fetch(url, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`capturing ${url}: ${response.status} ${body.toString().slice(0, 500)}`);
  const kept: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!DROPPED.has(name)) kept[name] = value;
  });
  return { status: response.status, headers: kept, body: body.toString('base64') };
}

export interface MemoryServer {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/** Starts the server process with `routes` (path with query → captured answer). */
export async function startMemoryServer(routes: Record<string, Captured>, dir: string): Promise<MemoryServer> {
  const file = join(dir, 'memory-server.json');
  writeFileSync(file, JSON.stringify(routes));
  const { port, pid, stop } = await startServerProcess(__filename, [file], 'memory server');
  return { url: `http://127.0.0.1:${port}`, pid, stop };
}

function serve(file: string) {
  const routes = new Map(
    Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Captured>).map(([path, c]) => {
      const body = Buffer.from(c.body, 'base64');
      return [path, { status: c.status, headers: { ...c.headers, 'content-length': String(body.length) }, body }];
    }),
  );
  const server = createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(route.status, route.headers).end(route.body);
  });
  serveOnFreePort(server);
}

if (require.main === module) serve(process.argv[2]);
