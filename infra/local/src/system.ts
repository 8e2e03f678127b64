import { execFile, spawn, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

export const execFileAsync = promisify(execFile);

export const isRoot = () => process.getuid?.() === 0;

/** A free TCP port on loopback (bound, read, released). */
/**
 * A port nothing listens on now, never one this process handed out before: the port is free
 * again the moment it is probed, so two probes in a row can name the same one, and then two
 * processes of one stack would race for it (the loser dies, and the winner answers its readiness
 * probe in its place).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}
const handedOut = new Set<number>();

export async function which(command: string): Promise<string | null> {
  try {
    const { stdout } = await execFileAsync('sh', ['-c', `command -v ${command}`]);
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/** Installs Debian packages when running as root and they are missing; explains otherwise. */
export async function ensureDebianPackage(
  binary: string,
  pkg: string,
  log: (line: string) => void,
  otherwise = ', or set the matching *_URL variable',
): Promise<void> {
  if (await which(binary)) return;
  if (!isRoot() || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`${binary} is not installed: install the Debian package ${pkg}${otherwise}`);
  }
  log(`installing ${pkg} with apt-get (one time)`);
  await run('apt-get', ['install', '-y', '-q', pkg], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }).catch(async () => {
    await run('apt-get', ['update', '-q']);
    await run('apt-get', ['install', '-y', '-q', pkg], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  });
}

/**
 * The browser the end-to-end tests drive (test/e2e/graphql-explorer.test.ts): Debian's Chromium,
 * installed like Postgres and Redis when missing, never a browser build downloaded by a library.
 * Only tests need it; `npm start` does not.
 */
export async function ensureChromium(log: (line: string) => void): Promise<string> {
  await ensureDebianPackage('chromium', 'chromium', log, ' (the end-to-end tests drive it)');
  const path = await which('chromium');
  if (!path) throw new Error('chromium is not on the PATH after its installation');
  return path;
}

/** Runs a command to completion; rejects with its output on failure. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
