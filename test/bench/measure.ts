import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { Agent, Client, request } from 'undici';
import { median, percentile } from './stats';

/** One target or anchor's figures, medians over its rounds. */
export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Response bytes per second. */
  bytesPerSecond: number;
  errors: number;
  rounds: number;
  /** Requests answered over all rounds. */
  completed: number;
}

export interface SerialFigures {
  /** Per-request milliseconds over all rounds' samples. */
  p50: number;
  p99: number;
  mean: number;
  samples: number;
  /** Bytes of one answer (the last one). */
  bytes: number;
  errors: number;
}

export interface Load {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The status every answer should have (default: any 2xx); a conditional GET's is 304. */
  status?: number;
  /**
   * Bodies of a MiB or more: counted as they stream by, not kept (streamingRound). autocannon
   * appends every body chunk to a string, which cost its thread about 14 ms per MiB: at 32
   * connections the client, not the server, set the pace, for cgit and for us alike.
   */
  largeBodies?: boolean;
}

/** One round at fixed concurrency: autocannon, or streamingRound for large bodies. */
export async function loadRound(load: Load, options: { duration: number; connections: number }) {
  if (load.largeBodies) return streamingRound(load, options);
  const { status, largeBodies: _largeBodies, ...request } = load;
  const result = await autocannon({
    ...request,
    duration: options.duration,
    connections: options.connections,
    timeout: 60,
  });
  const unexpected =
    status === undefined
      ? result.non2xx
      : result.requests.total - ((result.statusCodeStats as Record<string, { count: number }>)[status]?.count ?? 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerSecond: result.throughput.average,
    errors: result.errors + result.timeouts + unexpected,
    /** Requests answered within the round (one still in flight at its end is not counted). */
    completed: result.requests.total,
  };
}

/**
 * A round as loadRound reports it, from `connections` loops over connections of their own, each
 * sending its next request when the last answer's body has streamed by (counted, then dropped).
 * Answers still in flight when the round ends are waited for but not counted, as autocannon
 * drops them.
 */
async function streamingRound(load: Load, options: { duration: number; connections: number }) {
  const url = new URL(load.url);
  const latencies: number[] = [];
  let bytes = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + options.duration * 1000;
  const clients = Array.from({ length: options.connections }, () => new Client(url.origin, { pipelining: 1 }));
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < end) {
        const sent = performance.now();
        try {
          const response = await client.request({
            path: url.pathname + url.search,
            method: load.method ?? 'GET',
            headers: load.headers,
            body: load.body,
          });
          let size = 0;
          for await (const chunk of response.body) size += (chunk as Buffer).length;
          const ok = load.status === undefined ? response.statusCode < 300 : response.statusCode === load.status;
          if (!ok) errors++;
          const answered = performance.now();
          if (answered > end) break;
          bytes += size;
          if (ok) latencies.push(answered - sent);
        } catch {
          errors++;
        }
      }
    }),
  );
  await Promise.all(clients.map((client) => client.close()));
  const seconds = options.duration;
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bytesPerSecond: bytes / seconds,
    errors,
    completed: latencies.length,
  };
}

export function summariseLoad(rounds: Awaited<ReturnType<typeof loadRound>>[]): LoadFigures {
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    bytesPerSecond: median(rounds.map((r) => r.bytesPerSecond)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    rounds: rounds.length,
    completed: rounds.reduce((sum, r) => sum + r.completed, 0),
  };
}

/** A 2 s warm-up at the same concurrency: JIT, pools and caches, before any figure is taken. */
export const warmUp = (load: Load, connections: number) => loadRound(load, { duration: 2, connections });

/**
 * One request, waited for: autocannon ends a round by dropping the requests still in flight, but
 * the server goes on working on them, and a slow route's next round would queue behind them.
 */
export async function settle(load: Load): Promise<void> {
  const response = await request(load.url, {
    method: load.method ?? 'GET',
    headers: load.headers,
    body: load.body,
    dispatcher: keepAlive,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
}

/** One sample of serial timing: milliseconds and bytes, or an error. */
export type Probe = () => Promise<{ bytes: number }>;

const keepAlive = new Agent({ keepAliveTimeout: 30_000, connections: 4 });

/** GET over a kept-alive connection, reading the whole body; anything but 200 is an error. */
export const httpProbe =
  (url: string, headers: Record<string, string> = {}): Probe =>
  async () => {
    const response = await request(url, { headers, dispatcher: keepAlive });
    let bytes = 0;
    for await (const chunk of response.body) bytes += (chunk as Buffer).length;
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
    return { bytes };
  };

/** Spawns a command (or `sh -c` for a pipeline) per call, reading and dropping its stdout. */
export const commandProbe =
  (command: string, args: string[], cwd?: string): Probe =>
  () =>
    new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      let bytes = 0;
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve({ bytes }) : reject(new Error(`${command} ${args.join(' ')}: exit ${code}: ${stderr}`)),
      );
    });

/** Several probes one after the other, timed as one (e.g. `git diff` then `git log`). */
export const sequence =
  (...probes: Probe[]): Probe =>
  async () => {
    let bytes = 0;
    for (const probe of probes) bytes += (await probe()).bytes;
    return { bytes };
  };

/** Times a probe one request at a time for `seconds` (at least `min`, at most `max` samples). */
export async function serialRound(probe: Probe, options: { seconds: number; min?: number; max?: number }) {
  const min = options.min ?? 5;
  const max = options.max ?? 2_000;
  const times: number[] = [];
  let bytes = 0;
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  while (times.length + errors < max && (times.length + errors < min || performance.now() < deadline)) {
    const started = performance.now();
    try {
      bytes = (await probe()).bytes;
      times.push(performance.now() - started);
    } catch (error) {
      errors++;
      if (errors === 1) process.stderr.write(`  probe failed: ${(error as Error).message.slice(0, 300)}\n`);
      if (errors >= 3 && times.length === 0) break;
    }
  }
  return { times, bytes, errors };
}

export function summariseSerial(rounds: Awaited<ReturnType<typeof serialRound>>[]): SerialFigures {
  const times = rounds.flatMap((r) => r.times);
  return {
    p50: median(times),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / (times.length || 1),
    samples: times.length,
    bytes: rounds.at(-1)?.bytes ?? 0,
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
  };
}

export const closeProbes = () => keepAlive.close();
