import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

/** An anchor server running in a process of its own, so it shares no event loop with the load generator. */
export interface ServerProcess {
  port: number;
  pid: number;
  stop: () => Promise<void>;
}

/** Runs `script` with `args` in a new Node process and waits for the port it prints (see `serveOnFreePort`). */
export async function startServerProcess(script: string, args: string[], what: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${what} exited (${code})`)));
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      resolve(Number(line));
      // Anything it prints later (a stand-in's error log) goes to our stderr, under its name.
      lines.on('line', (later) => process.stderr.write(`${what}: ${later}\n`));
    });
  });
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The child's side: listens on a free loopback port with keep-alive, prints it, and closes on SIGTERM. */
export function serveOnFreePort(server: Server): void {
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
}
