import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@hub/local';

const execFileAsync = promisify(execFile);
const CGIT = '/usr/lib/cgit/cgit.cgi';
const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/**
 * cgit (C, a fork per request, no cache) and `git http-backend`, both as CGI under lighttpd on
 * loopback, over the same bare repository the git worker keeps: what serving the same bytes
 * costs without our services. Installs the Debian packages when missing (the bench runs as root
 * on these machines); when that fails the anchors are reported as not available, with why.
 */
export interface CgiAnchors {
  /** cgit's raw blob by object id. */
  blobUrl: (sha: string) => string;
  /** cgit's tar.gz snapshot of a commit. */
  snapshotUrl: (sha: string) => string;
  /** `git http-backend`'s clone URL of the repository. */
  cloneUrl: string;
  pid: number;
  stop: () => Promise<void>;
}

export type CgiAnchorsOrWhy = { ok: true; anchors: CgiAnchors } | { ok: false; why: string };

async function ensureInstalled(log: (line: string) => void): Promise<string | null> {
  const missing = () => !existsSync(CGIT) || !existsSync('/usr/sbin/lighttpd');
  if (!missing()) return null;
  log('installing cgit and lighttpd (apt-get) for the CGI anchors');
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await execFileAsync('apt-get', ['install', '-y', '--no-install-recommends', 'cgit', 'lighttpd'], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).catch(async () => {
      await execFileAsync('apt-get', ['update'], { env, maxBuffer: 16 * 1024 * 1024 });
      await execFileAsync('apt-get', ['install', '-y', '--no-install-recommends', 'cgit', 'lighttpd'], {
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
    });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    return `apt-get install cgit lighttpd failed: ${(e.stderr || e.message).trim().split('\n').slice(-3).join(' ')}`;
  }
  return missing() ? 'cgit or lighttpd still missing after apt-get install' : null;
}

export async function startCgiAnchors(
  repoPath: string,
  dir: string,
  log: (line: string) => void,
): Promise<CgiAnchorsOrWhy> {
  const why = await ensureInstalled(log);
  if (why) return { ok: false, why };
  const root = join(dir, 'lighttpd');
  mkdirSync(join(root, 'www'), { recursive: true });
  const port = await freePort();
  const repoName = basename(repoPath);
  writeFileSync(
    join(root, 'cgitrc'),
    [
      'virtual-root=/cgit/',
      'cache-size=0',
      'snapshots=tar.gz',
      'enable-http-clone=0',
      `repo.url=bench`,
      `repo.path=${repoPath}`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(root, 'lighttpd.conf'),
    [
      'server.modules = ("mod_alias", "mod_cgi", "mod_setenv")',
      `server.document-root = "${join(root, 'www')}"`,
      `server.bind = "127.0.0.1"`,
      `server.port = ${port}`,
      `server.errorlog = "${join(root, 'error.log')}"`,
      `server.pid-file = "${join(root, 'lighttpd.pid')}"`,
      'server.max-connections = 1024',
      '$HTTP["url"] =~ "^/cgit" {',
      `  alias.url = ("/cgit" => "${CGIT}")`,
      '  cgi.assign = ("" => "")',
      `  setenv.add-environment = ("CGIT_CONFIG" => "${join(root, 'cgitrc')}")`,
      '}',
      '$HTTP["url"] =~ "^/git" {',
      `  alias.url = ("/git" => "${HTTP_BACKEND}")`,
      '  cgi.assign = ("" => "")',
      `  setenv.add-environment = ("GIT_PROJECT_ROOT" => "${dirname(repoPath)}", "GIT_HTTP_EXPORT_ALL" => "1")`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('/usr/sbin/lighttpd', ['-D', '-f', join(root, 'lighttpd.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) return { ok: false, why: `lighttpd exited (${child.exitCode}): ${stderr.trim()}` };
    try {
      const response = await fetch(`${base}/git/${repoName}/info/refs?service=git-upload-pack`);
      if (response.status === 200) {
        return {
          ok: true,
          anchors: {
            blobUrl: (sha) => `${base}/cgit/bench/blob/?id=${sha}`,
            snapshotUrl: (sha) => `${base}/cgit/bench/snapshot/bench-${sha}.tar.gz`,
            cloneUrl: `${base}/git/${repoName}`,
            pid: child.pid!,
            stop,
          },
        };
      }
      await stop();
      return {
        ok: false,
        why: `git http-backend under lighttpd answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await stop();
  return { ok: false, why: `lighttpd did not answer on port ${port}: ${stderr.trim()}` };
}
