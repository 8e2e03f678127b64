import { createHash } from 'node:crypto';
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { alive } from './leftovers';
import { readPidFile } from './pid-file';
import { execFileAsync, ensureDebianPackage, isRoot, run, sleep } from './system';

const DATABASE = 'hub';

/**
 * Where Postgres keeps its data when the folder asked for is out of the server user's reach.
 * As root, Postgres runs as another user, and a clone under a home of mode 700 (root's, or a
 * `mktemp -d`) is a folder that user cannot enter: initdb answered "Permission denied". Granting
 * it a way in would mean changing the modes or ACLs of the user's own folders (and setfacl is not
 * always installed), so the server's files move instead, to a folder of their own under
 * /var/lib (kept across reboots, unlike /tmp, /var/tmp's ageing or $XDG_RUNTIME_DIR), named after
 * a hash of the folder asked for: one clone always finds its own data again, and two clones never
 * share. A symlink in the folder asked for shows where the data went.
 */
export const RELOCATED_ROOT = '/var/lib/v3hub';

interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

/** Postgres refuses to run as root: as root, run it as the `postgres` user, else as nobody. */
async function serverUser(): Promise<ServerUser | null> {
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
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    return versions.length ? join(base, versions[0], 'bin') : null;
  };
  const found = find();
  if (found) return found;
  await ensureDebianPackage('initdb', 'postgresql', log);
  const installed = find();
  if (!installed) throw new Error('Postgres server binaries not found after installing postgresql');
  return installed;
}

/** Runs a command as `user` (or as ourselves when null). */
function runAs(user: ServerUser | null, command: string, args: string[], cwd: string) {
  return user
    ? run('setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', command, ...args], { cwd })
    : run(command, args, { cwd });
}

/**
 * The folder the server keeps its files in: `dir` itself when the server user can write there,
 * else a folder of its own under RELOCATED_ROOT (see there why).
 */
export async function serverDir(dir: string, user: ServerUser | null): Promise<string> {
  mkdirSync(dir, { recursive: true });
  if (!user) return dir;
  chownSync(dir, user.uid, user.gid);
  const reachable = await runAs(user, 'test', ['-w', dir, '-a', '-x', dir], '/').then(
    () => true,
    () => false,
  );
  if (reachable) return dir;
  const pointer = join(dir, 'data');
  // The link left by an earlier start names the folder, even after the clone moved (the hash of
  // the new path would name an empty one). A link whose target is gone is still the right link:
  // its data was never made (a first initdb cut short), and initdb makes it there.
  // A copy of a clone carries the same link, but its original still stands at the path the
  // folder records: the copy gets a folder of its own, never the original's server and data.
  const here = realpathSync(dir);
  const linked = symlinkTarget(pointer);
  if (linked !== null && dirname(linked).startsWith(`${RELOCATED_ROOT}/`)) {
    const owner = recordedClone(dirname(linked));
    if (owner === null || owner === here || !existsSync(owner)) return prepared(dirname(linked), user, here);
  }
  if (linked === null && existsSync(join(pointer, 'PG_VERSION'))) {
    throw new Error(
      `${pointer} holds a Postgres cluster its server user cannot reach; run once as that user, or allow it into ${dir}`,
    );
  }
  const key = createHash('sha256').update(here).digest('hex').slice(0, 16);
  const relocated = prepared(join(RELOCATED_ROOT, `postgres-${key}`), user, here);
  if (linked !== null) rmSync(pointer, { force: true });
  if (!existsSync(pointer)) symlinkSync(join(relocated, 'data'), pointer);
  return relocated;
}

/** The relocated folder, made and owned by the server user, recording the clone folder it serves. */
function prepared(relocated: string, user: ServerUser, clone: string): string {
  mkdirSync(RELOCATED_ROOT, { recursive: true, mode: 0o755 });
  mkdirSync(relocated, { recursive: true, mode: 0o700 });
  chownSync(relocated, user.uid, user.gid);
  writeFileSync(join(relocated, 'clone'), clone);
  return relocated;
}

function recordedClone(relocated: string): string | null {
  try {
    return readFileSync(join(relocated, 'clone'), 'utf8');
  } catch {
    return null;
  }
}

function symlinkTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null;
  }
}

function postmasterPid(data: string): number | null {
  return readPidFile(join(data, 'postmaster.pid'));
}

export interface PostgresOptions {
  dir: string;
  port: number;
  log: (line: string) => void;
  /**
   * fsync and synchronous commits on: what `npm start` keeps must survive a machine crash. The
   * test stacks turn it off (their data is thrown away after the run, and syncing every commit
   * costs them minutes).
   */
  durable: boolean;
}

/**
 * Starts (initialising on first use) a Postgres server for `dir`, listening on loopback only,
 * and makes sure the `hub` database exists. A server still running on that folder (left by a
 * launcher that died) is stopped first, so the one that answers has these settings.
 */
export async function startPostgres(options: PostgresOptions) {
  const { port, log, durable } = options;
  const bin = await binDir(log);
  const user = await serverUser();
  const dir = await serverDir(options.dir, user);
  if (dir !== options.dir) log(`Postgres keeps its data in ${dir} (the postgres user cannot enter ${options.dir})`);
  const as = (command: string, args: string[]) => runAs(user, join(bin, command), args, dir);
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'PG_VERSION'))) {
    log('initialising a Postgres data folder');
    await as('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      ...(durable ? [] : ['--no-sync']),
    ]);
  }
  const stop = async () => {
    const pid = postmasterPid(data);
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
    // pg_ctl is satisfied once the pid file is gone, a moment before the postmaster itself.
    for (let i = 0; pid && i < 200 && alive(pid); i++) await sleep(50);
  };
  if (
    await as('pg_ctl', ['-D', data, 'status']).then(
      () => true,
      () => false,
    )
  ) {
    log('stopping a Postgres left running on this data folder');
    await stop();
  }
  const sync = durable
    ? '-c fsync=on -c synchronous_commit=on -c full_page_writes=on'
    : '-c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  await as('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'postgres.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200 ${sync}`,
    'start',
  ]);
  const admin = postgres({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    onnotice: () => {},
  });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (!exists) await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`,
    /** The server's data folder (for pg_ctl, and for finding a server a dead launcher left). */
    dataDir: data,
    stop,
    /** Restarts the server with its settings: `immediate` is a crash to it (it recovers from its WAL). */
    restart: async (mode: 'fast' | 'immediate') => {
      await as('pg_ctl', ['-D', data, '-l', join(dir, 'postgres.log'), '-m', mode, '-w', '-t', '60', 'restart']);
    },
  };
}
