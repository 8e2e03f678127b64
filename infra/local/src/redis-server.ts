import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopLeftovers } from './leftovers';
import { readPidFile } from './pid-file';
import { ensureDebianPackage, run, sleep } from './system';

/**
 * Starts a loopback-only Redis under `dir`. It holds events in flight and queued hook deliveries,
 * so it keeps an append-only file (fsync every second): a restart loses none of them.
 */
export async function startRedis(options: { dir: string; port: number; log: (line: string) => void }) {
  const { dir, port, log } = options;
  await ensureDebianPackage('redis-server', 'redis-server', log);
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, 'redis.pid');
  const server = { pidFile, comm: 'redis-server', signal: 'SIGTERM' as const };
  // One left running on this folder by a launcher that died would hold the port; a stale pid
  // file would be read below as the new server's.
  await stopLeftovers({ pid: 0, services: [], servers: [server] });
  rmSync(pidFile, { force: true });
  await run('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--daemonize',
    'yes',
    '--dir',
    dir,
    '--pidfile',
    pidFile,
    '--logfile',
    join(dir, 'redis.log'),
  ]);
  // --daemonize returns once the fork is made; the pid file is written by the child a moment later.
  let pid = readPidFile(pidFile);
  for (let i = 0; i < 200 && pid === null; i++) {
    await sleep(25);
    pid = readPidFile(pidFile);
  }
  if (pid === null)
    throw new Error(`redis-server did not write its pid to ${pidFile} within 5 s (see ${join(dir, 'redis.log')})`);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid,
    pidFile,
    /** Stops the server if the pid file still names it (a restart writes a new one). */
    stop: async () => {
      await stopLeftovers({ pid: 0, services: [], servers: [server] });
    },
  };
}
