import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopLeftovers } from './leftovers';
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
  // One left running on this folder by a launcher that died would hold the port; a stale pid
  // file would be read below as the new server's.
  await stopLeftovers({ pid: 0, services: [], servers: [{ pidFile, comm: 'redis-server', signal: 'SIGTERM' }] });
  rmSync(pidFile, { force: true });
  await run('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--daemonize', 'yes',
    '--dir', dir, '--pidfile', pidFile, '--logfile', join(dir, 'redis.log'),
  ]);
  for (let i = 0; i < 100 && !existsSync(pidFile); i++) await sleep(50);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  return {
    url: `redis://127.0.0.1:${port}`,
    pid,
    pidFile,
    stop: async () => {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        return;
      }
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
          await sleep(50);
        } catch {
          return;
        }
      }
    },
  };
}
