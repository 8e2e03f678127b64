// npm run bench: times GET /api/v3/user through the facade, the same query straight to the gateway,
// and straight to the identity subgraph, then the project routes (which cross projects, membership
// and identity) through the facade, in one run on one stack, and prints the ratios; then webhook
// deliveries/s and push -> delivery latency.
// Options: --duration <s> (default 10), --connections <n> (default 10).
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { CONFIG_TABLE, signPrincipal } from '@hub/common';
import { REPO_ROOT, startStack, type Stack } from '@hub/local';
import { Kind, parse, print, type DefinitionNode } from 'graphql';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = arg('duration', 10);
const connections = arg('connections', 10);

/** The facade's own CurrentUser document (operation + fragment), so every hop runs the same query. */
function currentUserQuery(): string {
  const document = parse(readFileSync(resolve(REPO_ROOT, 'rest-facade/src/operations/users.graphql'), 'utf8'));
  const wanted = (d: DefinitionNode) =>
    (d.kind === Kind.OPERATION_DEFINITION && d.name?.value === 'CurrentUser') || (d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === 'V3User');
  return print({ ...document, definitions: document.definitions.filter(wanted) });
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Figures> {
  await autocannon({ ...options, duration: 2, connections }); // warm-up: JIT, pools, caches
  const result = await autocannon({ ...options, duration, connections });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** A page of root's projects and one project with a small team, for the project routes. */
async function seedProjects(restUrl: string, token: string): Promise<{ projectId: number; listSize: number }> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(restUrl + path, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (response.status !== 201) throw new Error(`seeding ${path} failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number };
  };
  const listSize = 20;
  const projects = [];
  for (let i = 0; i < listSize; i++) projects.push(await post('/projects', { name: `bench-${i}` }));
  for (let i = 0; i < 3; i++) {
    const user = await post('/users', { email: `bench${i}@example.com`, password: 'bench-password', username: `bench${i}`, name: `Bench ${i}` });
    await post(`/projects/${projects[0].id}/members`, { user_id: user.id, access_level: 30 });
  }
  return { projectId: projects[0].id, listSize };
}

/** A project with one pushed commit (git over HTTP through the facade), for the repository routes. */
async function seedRepository(restUrl: string, token: string): Promise<number> {
  const response = await fetch(`${restUrl}/projects`, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench-repo' }) });
  const project = (await response.json()) as { id: number; path_with_namespace: string };
  const work = mkdtempSync(join(tmpdir(), 'hub-bench-wc-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: work, stdio: 'pipe' });
  git('init', '-q', '-b', 'master');
  writeFileSync(join(work, 'README.md'), '# bench\n'.repeat(100));
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  const remote = new URL(restUrl.replace(/\/api\/v3$/, '') + `/${project.path_with_namespace}.git`);
  remote.username = 'root';
  remote.password = token;
  git('push', '-q', remote.toString(), 'master');
  rmSync(work, { recursive: true, force: true });
  return project.id;
}

/** A plain receiver in this process: records when each delivery arrived, under its path. */
async function startBenchReceiver() {
  const arrivals = new Map<string, number[]>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const list = arrivals.get(req.url!) ?? [];
      list.push(performance.now());
      arrivals.set(req.url!, list);
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const count = (path: string) => arrivals.get(path)?.length ?? 0;
  return {
    url: (path: string) => base + path,
    arrivals: (path: string) => arrivals.get(path) ?? [],
    async waitFor(path: string, n: number, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (count(path) < n) {
        if (Date.now() > deadline) throw new Error(`${path}: ${count(path)} of ${n} deliveries after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Webhooks: how fast a backlog drains (deliveries/s: events queued while the hook worker was
 * stopped, then fanned out to `hooks` hooks each and sent), and push → delivery latency (from the
 * moment `git push` returns to the Push Hook's arrival, sequential pushes).
 */
async function benchHooks(stack: Stack, token: string) {
  const receiver = await startBenchReceiver();
  const post = async (path: string, body: unknown) => {
    const response = await fetch(stack.restUrl + path, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number; path_with_namespace: string };
  };
  try {
    const hooks = 20;
    const events = 150;
    const project = await post('/projects', { name: 'bench-hooks' });
    for (let i = 0; i < hooks; i++) await post(`/projects/${project.id}/hooks`, { url: receiver.url('/burst'), issues_events: true, push_events: false });
    await stack.stopProcess('hooks-worker');
    for (let i = 0; i < events; i++) await post(`/projects/${project.id}/issues`, { title: `bench ${i}` });
    await stack.restart('hooks-worker');
    const started = performance.now();
    await receiver.waitFor('/burst', hooks * events, 120_000);
    const seconds = (performance.now() - started) / 1000;
    const rate = (hooks * events) / seconds;

    const pushed = await post('/projects', { name: 'bench-push-latency' });
    await post(`/projects/${pushed.id}/hooks`, { url: receiver.url('/push') });
    const work = mkdtempSync(join(tmpdir(), 'hub-bench-push-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: work, stdio: 'pipe' });
    const remote = new URL(stack.restUrl.replace(/\/api\/v3$/, '') + `/${pushed.path_with_namespace}.git`);
    remote.username = 'root';
    remote.password = token;
    git('init', '-q', '-b', 'master');
    const latencies: number[] = [];
    const pushes = 40;
    for (let i = 0; i < pushes; i++) {
      writeFileSync(join(work, 'n.txt'), String(i));
      git('add', '-A');
      git('commit', '-q', '-m', `push ${i}`);
      git('push', '-q', remote.toString(), 'master');
      const pushedAt = performance.now();
      await receiver.waitFor('/push', i + 1, 10_000);
      latencies.push(Math.max(0, receiver.arrivals('/push')[i] - pushedAt));
    }
    rmSync(work, { recursive: true, force: true });
    latencies.sort((a, b) => a - b);
    return { deliveries: hooks * events, seconds, rate, pushes, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await receiver.close();
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'hub-bench-'));
  chmodSync(dir, 0o755);
  const env = { ...process.env };
  for (const name of Object.keys(CONFIG_TABLE)) delete env[name];
  env.LOG_LEVEL = 'warn';
  process.stdout.write(`starting a stack in ${dir} ...\n`);
  const stack = await startStack({ dataDir: dir, env, freePorts: true, logs: { kind: 'files', dir }, log: () => {} });
  try {
    const query = JSON.stringify({ query: currentUserQuery(), variables: {} });
    const json = { 'content-type': 'application/json' };
    const principal = signPrincipal({ userId: 1, username: 'root', isAdmin: true, impersonatorId: null }, stack.env.PRINCIPAL_SECRET!);
    process.stdout.write(`${connections} connections, ${duration} s per target after a 2 s warm-up\n\n`);
    const rows = [
      await measure('facade  GET /api/v3/user', { url: `${stack.restUrl}/user`, headers: { 'PRIVATE-TOKEN': stack.rootToken } }),
      await measure('gateway POST /graphql', { url: stack.graphqlUrl, method: 'POST', headers: { ...json, 'PRIVATE-TOKEN': stack.rootToken }, body: query }),
      await measure('identity subgraph', { url: `${stack.urls.identity}/graphql`, method: 'POST', headers: { ...json, 'x-hub-principal': principal }, body: query }),
    ];
    const { projectId, listSize } = await seedProjects(stack.restUrl, stack.rootToken);
    const asRoot = { headers: { 'PRIVATE-TOKEN': stack.rootToken } };
    rows.push(
      await measure('facade  GET project', { url: `${stack.restUrl}/projects/${projectId}`, ...asRoot }),
      await measure(`facade  GET projects (${listSize})`, { url: `${stack.restUrl}/projects`, ...asRoot }),
      await measure('facade  GET members', { url: `${stack.restUrl}/projects/${projectId}/members`, ...asRoot }),
    );
    const repoId = await seedRepository(stack.restUrl, stack.rootToken);
    rows.push(
      await measure('facade  GET tree', { url: `${stack.restUrl}/projects/${repoId}/repository/tree`, ...asRoot }),
      await measure('facade  GET blob (stream)', { url: `${stack.restUrl}/projects/${repoId}/repository/blobs/master?filepath=README.md`, ...asRoot }),
    );
    const hooks = await benchHooks(stack, stack.rootToken);
    const pad = (s: string | number, n: number) => String(s).padStart(n);
    process.stdout.write(`${'target'.padEnd(26)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('errors', 9)}\n`);
    for (const r of rows) process.stdout.write(`${r.name.padEnd(26)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${pad(r.errors, 9)}\n`);
    const [facade, gateway, identity] = rows;
    process.stdout.write(
      `\nthroughput ratios: facade/gateway ${(facade.rps / gateway.rps).toFixed(2)}, gateway/identity ${(gateway.rps / identity.rps).toFixed(2)}, facade/identity ${(facade.rps / identity.rps).toFixed(2)}\n`,
    );
    process.stdout.write(
      `project routes / GET user through the facade: ${rows
        .slice(3)
        .map((r) => `${r.name.replace('facade  GET ', '')} ${(r.rps / facade.rps).toFixed(2)}`)
        .join(', ')}\n`,
    );
    process.stdout.write(
      `\nwebhooks: ${hooks.deliveries} deliveries drained in ${hooks.seconds.toFixed(2)} s = ${hooks.rate.toFixed(0)} deliveries/s (one worker process); ` +
        `push -> delivery over ${hooks.pushes} pushes: p50 ${hooks.p50.toFixed(1)} ms, p99 ${hooks.p99.toFixed(1)} ms\n`,
    );
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
