import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { execFileAsync, ensureDebianPackage, isRoot, run } from './system';

const DATABASE = 'hub';

/** Postgres refuses to run as root: as root, run it as the `postgres` user, else as nobody. */
async function serverUser(): Promise<{ name: string; uid: number; gid: number } | null> {
  if (!isRoot()) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const { stdout: uid } = await execFileAsync('id', ['-u', name]);
      const { stdout: gid } = await execFileAsync('id', ['-g', name]);
      return { name, uid: Number(uid), gid: Number(gid) };
    } catch {
      // try the next one
    }
  }
  throw new Error('running as root, but there is neither a postgres nor a nobody user to run Postgres as');
}

async function binDir(log: (line: string) => void): Promise<string> {
  const find = () => {
    const base = '/usr/lib/postgresql';
    if (!existsSync(base)) return null;
    const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
    return versions.length ? join(base, versions[0], 'bin') : null;
  };
  const found = find();
  if (found) return found;
  await ensureDebianPackage('initdb', 'postgresql', log);
  const installed = find();
  if (!installed) throw new Error('Postgres server binaries not found after installing postgresql');
  return installed;
}

/**
 * Starts (initialising on first use) a Postgres server under `dir`, listening on loopback only,
 * and makes sure the `hub` database exists. Reuses a server already running on that folder.
 */
export async function startPostgres(options: { dir: string; port: number; log: (line: string) => void }) {
  const { dir, port, log } = options;
  const bin = await binDir(log);
  const user = await serverUser();
  const as = (command: string, args: string[]) =>
    user ? run('setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', join(bin, command), ...args], { cwd: dir }) : run(join(bin, command), args, { cwd: dir });
  const data = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  if (user) chownSync(dir, user.uid, user.gid);
  if (!existsSync(join(data, 'PG_VERSION'))) {
    log('initialising a Postgres data folder');
    await as('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  }
  const running = await as('pg_ctl', ['-D', data, 'status']).then(() => true, () => false);
  if (!running) {
    await as('pg_ctl', [
      '-D', data, '-l', join(dir, 'postgres.log'), '-w', '-t', '60',
      '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200 -c fsync=off -c synchronous_commit=off`,
      'start',
    ]);
  }
  const admin = postgres({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (!exists) await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`,
    stop: async () => {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
    },
  };
}
