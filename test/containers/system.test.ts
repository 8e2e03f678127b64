// The containerized system end to end, as `npm run test:containers` starts it
// (infra/docker/test-containers.cjs passes the URLs and the compose project in CT_* variables).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through npm run test:containers`);
  return value;
};
const ENGINE = env('CT_ENGINE');
const PROJECT = env('CT_PROJECT');
const FACADE = env('CT_FACADE_URL');
const GATEWAY = env('CT_GATEWAY_URL');
const RECEIVER = env('CT_RECEIVER_URL');
const ROOT_PASSWORD = env('CT_ROOT_PASSWORD');
const ROOT_TOKEN = env('CT_ROOT_TOKEN');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const scratch: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'v3hub-ct-'));
  scratch.push(dir);
  return dir;
};
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function api(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${FACADE}/api/v3${path}`, {
    method,
    headers: {
      ...(options.token ? { 'PRIVATE-TOKEN': options.token } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const buffer = Buffer.from(await res.arrayBuffer());
  let body: any = null;
  try {
    body = JSON.parse(buffer.toString('utf8'));
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, buffer, body };
}

function git(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'user.name=Container Test', '-c', 'user.email=ct@example.com', '-c', 'init.defaultBranch=master', ...args],
      { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true' }, encoding: 'utf8' },
      (error, stdout, stderr) => (error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout)),
    );
  });
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(500);
  }
}

const engine = (...args: string[]) => execFileSync(ENGINE, args, { encoding: 'utf8' }).trim();
/** The container of a compose service (docker-compose names them <project>_<service>_1). */
const containerOf = (service: string) =>
  engine(
    'ps',
    '-q',
    '--filter',
    `label=com.docker.compose.project=${PROJECT}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
  );

let token: string;
let project: { id: number; path_with_namespace: string; http_url_to_repo: string };
let pushedSha: string;
let readmeBlob: string;
const README = `# containers\n\nwritten at ${new Date().toISOString()}\n`;
const DATA = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251));

describe('the containerized system', () => {
  it('signs root in with the compose password', async () => {
    const res = await api('POST', '/session', { body: { login: 'root', password: ROOT_PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'root', is_admin: true, private_token: ROOT_TOKEN });
    token = res.body.private_token;
  });

  it('creates a project and adds a push hook aimed at a receiver on the compose network', async () => {
    const res = await api('POST', '/projects', { token, body: { name: `ct-${Date.now().toString(36)}` } });
    expect(res.status).toBe(201);
    project = res.body;
    expect(project.path_with_namespace).toMatch(/^root\/ct-/);
    const hook = await api('POST', `/projects/${project.id}/hooks`, {
      token,
      body: { url: `http://hook-receiver:9000/hook/${project.id}`, push_events: true },
    });
    expect(hook.status).toBe(201);
    expect(hook.body).toMatchObject({ url: `http://hook-receiver:9000/hook/${project.id}`, push_events: 'true' });
  });

  it('takes a git push over HTTP through the facade and gives it back on clone', async () => {
    const work = tempDir();
    await git(work, 'init', '-q', '-b', 'master');
    writeFileSync(join(work, 'README.md'), README);
    writeFileSync(join(work, 'data.bin'), DATA);
    await git(work, 'add', '-A');
    await git(work, 'commit', '-q', '-m', 'first commit');
    pushedSha = (await git(work, 'rev-parse', 'HEAD')).trim();
    readmeBlob = (await git(work, 'rev-parse', 'HEAD:README.md')).trim();
    const remote = new URL(`${FACADE}/${project.path_with_namespace}.git`);
    remote.username = 'root';
    remote.password = token;
    await git(work, 'push', '-q', remote.toString(), 'master');

    const clone = tempDir();
    await git(clone, 'clone', '-q', remote.toString(), 'copy');
    expect(readFileSync(join(clone, 'copy', 'README.md'), 'utf8')).toBe(README);
    expect(readFileSync(join(clone, 'copy', 'data.bin')).equals(DATA)).toBe(true);
    expect((await git(join(clone, 'copy'), 'rev-parse', 'HEAD')).trim()).toBe(pushedSha);

    const branch = await api('GET', `/projects/${project.id}/repository/branches/master`, { token });
    expect(branch.status).toBe(200);
    expect(branch.body.commit.id).toBe(pushedSha);
  });

  it('serves a raw blob and an archive', async () => {
    const raw = await api('GET', `/projects/${project.id}/repository/raw_blobs/${readmeBlob}`, { token });
    expect(raw.status).toBe(200);
    expect(raw.buffer.toString('utf8')).toBe(README);
    const byPath = await api('GET', `/projects/${project.id}/repository/blobs/${pushedSha}?filepath=data.bin`, {
      token,
    });
    expect(byPath.status).toBe(200);
    expect(byPath.buffer.equals(DATA)).toBe(true);

    const archive = await api('GET', `/projects/${project.id}/repository/archive.tar.gz`, { token });
    expect(archive.status).toBe(200);
    expect([archive.buffer[0], archive.buffer[1]]).toEqual([0x1f, 0x8b]);
    const dir = tempDir();
    writeFileSync(join(dir, 'a.tar.gz'), archive.buffer);
    execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
    const top = execFileSync('tar', ['-tzf', 'a.tar.gz'], { cwd: dir, encoding: 'utf8' }).split('\n')[0].split('/')[0];
    expect(readFileSync(join(dir, top, 'README.md'), 'utf8')).toBe(README);
    expect(readFileSync(join(dir, top, 'data.bin')).equals(DATA)).toBe(true);
  });

  it('delivers the push hook to the receiver', async () => {
    const delivery = await eventually('the push hook delivery', async () => {
      const received = (await (await fetch(RECEIVER)).json()) as { path: string; text: string }[];
      return received.find((r) => r.path === `/hook/${project.id}`);
    });
    const payload = JSON.parse(delivery.text);
    expect(payload).toMatchObject({
      object_kind: 'push',
      ref: 'refs/heads/master',
      after: pushedSha,
      project_id: project.id,
    });
  });

  it('answers GraphQL at the gateway with the same tokens', async () => {
    const query = async (headers: Record<string, string>) => {
      const res = await fetch(`${GATEWAY}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: `{ viewer { id username isAdmin } project(id: ${project.id}) { id } }` }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const res = await query({ 'PRIVATE-TOKEN': token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      viewer: { id: expect.any(Number), username: 'root', isAdmin: true },
      project: { id: project.id },
    });
    const bad = await query({ 'PRIVATE-TOKEN': 'not-a-token' });
    expect(bad.status).toBe(401);
  });

  it.each(['rest-facade', 'git-worker', 'migrate'])(
    'runs %s as uid 1000 on a read-only root filesystem, /tmp writable, no compiler',
    (service) => {
      const id = engine(
        'ps',
        '-a',
        '-q',
        '--filter',
        `label=com.docker.compose.project=${PROJECT}`,
        '--filter',
        `label=com.docker.compose.service=${service}`,
      );
      const inspected = JSON.parse(engine('inspect', id))[0];
      expect(inspected.HostConfig.ReadonlyRootfs).toBe(true);
      expect(inspected.Config.User).toBe('1000:1000');
      if (service === 'migrate') {
        expect(inspected.State).toMatchObject({ Status: 'exited', ExitCode: 0 });
        return;
      }
      const sh = (script: string) => engine('exec', id, 'sh', '-c', script);
      expect(sh('id -u')).toBe('1000');
      // uid 1000's own home would be writable but for the read-only root filesystem.
      expect(sh('touch /home/node/x 2>&1 || echo refused')).toMatch(/Read-only file system[\s\S]*refused/);
      expect(sh('touch /tmp/x && echo written')).toBe('written');
      expect(sh('for c in gcc cc g++ make python3 npm; do command -v $c; done; true')).toBe('');
      // The git worker's PID 1 is tini, which reaps git's orphans.
      expect(sh('cat /proc/1/comm')).toBe(service === 'git-worker' ? 'tini' : 'node');
    },
  );

  it.each(['projects', 'rest-facade'])(
    'brings %s back by its restart policy after its process is killed',
    async (service) => {
      const id = containerOf(service);
      expect(id).not.toBe('');
      const before = JSON.parse(engine('inspect', id))[0];
      expect(before.State.Running).toBe(true);
      // SIGKILL to the container's process from the host: a crash, not a stop asked for (after
      // `podman kill` podman counts the container as stopped by the user and leaves it down).
      process.kill(before.State.Pid, 'SIGKILL');
      await eventually(`${service} restarted`, async () => {
        const now = JSON.parse(engine('inspect', id))[0];
        return now.State.Running && now.State.Pid !== before.State.Pid ? now : undefined;
      });
      const answered = await eventually(
        `the API through ${service} again`,
        async () => {
          const res = await api('GET', `/projects/${project.id}`, { token });
          return res.status === 200 ? res : undefined;
        },
        90_000,
      );
      expect(answered.body).toMatchObject({ id: project.id, path_with_namespace: project.path_with_namespace });
    },
  );
});
