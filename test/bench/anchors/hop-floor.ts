import { Agent, createServer, request } from 'node:http';
import { serveOnFreePort, startServerProcess, type ServerProcess } from './server-process';

/**
 * The floor a route's hops set: plain Node processes standing in for the processes the route
 * crosses (the facade, a subgraph, the git worker), each making the same calls to the next ones
 * over kept-alive HTTP, in the same order (in turn or side by side), and answering as many bytes
 * from memory. No GraphQL, no database, no git: only the hops. A route cannot answer faster than
 * its hops do, so where this floor is already slower than the git CLI anchor, the target ratio
 * cannot be met without taking out one of the parts the design names.
 */
export interface Hop {
  /** The process it stands in for. */
  name: string;
  /** The size of its answer. */
  bytes: number;
  /** Its calls: steps in turn, the calls of a step side by side. */
  steps?: Hop[][];
}

interface HopConfig {
  bytes: number;
  steps: string[][];
}

export interface HopFloor {
  url: string;
  /** Process ids of the stand-ins, for the sampler. */
  pids: number[];
  stop: () => Promise<void>;
}

/** Starts a stand-in per hop of `plan` (leaves first) and answers the URL of its front. */
export async function startHopFloor(plan: Hop): Promise<HopFloor> {
  const started: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
  const start = async (hop: Hop): Promise<string> => {
    const steps: string[][] = [];
    for (const step of hop.steps ?? []) steps.push(await Promise.all(step.map(start)));
    const config: HopConfig = { bytes: hop.bytes, steps };
    const child = await startServerProcess(__filename, [JSON.stringify(config)], `hop ${hop.name}`);
    started.push(child);
    return `http://127.0.0.1:${child.port}/`;
  };
  try {
    const url = await start(plan);
    return { url, pids: started.map((s) => s.pid), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function serve(config: HopConfig) {
  const body = Buffer.alloc(config.bytes, 0x61);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const call = (url: string) =>
    new Promise<void>((resolve, reject) => {
      request(url, { agent }, (res) => {
        res.on('data', () => {});
        res.on('end', resolve);
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  const server = createServer(async (_req, res) => {
    try {
      for (const step of config.steps) await Promise.all(step.map(call));
      res
        .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) })
        .end(body);
    } catch {
      res.writeHead(502).end();
    }
  });
  serveOnFreePort(server);
}

if (require.main === module) serve(JSON.parse(process.argv[2]) as HopConfig);
