import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSql } from '@hub/common';
import { freePort } from '@hub/local';
import { createProject, createUser, stack, type TestProject, type TestUser } from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';
import { startReplica } from '../support/replica';

const replicas: ChildProcess[] = [];
let owner: TestUser;
let project: TestProject;
let readme: string;
/** The repository and merge requests replicas' database, their own (see below). */
const database = `worker_refusal_${randomBytes(4).toString('hex')}`;
let admin: ReturnType<typeof createSql>;
/** A facade, and a gateway, whose git worker and whose repository and merge requests services the worker refuses. */
let facade: string;
let gateway: string;

const start = async (entry: string, log: string, settings: NodeJS.ProcessEnv, port: number) =>
  void replicas.push(await startReplica(entry, log, settings, `http://127.0.0.1:${port}/readyz`));
/** `url` with another path: the same server, another database. */
const withPath = (url: string, path: string) => Object.assign(new URL(url), { pathname: path }).toString();

// A git worker whose PRINCIPAL_SECRET is not the stack's (a rotation half rolled out) refuses
// every claim the facade signs over HTTP and every call a service signs over gRPC. The request was
// the client's right: it gets a 503, not the worker's 403 (which would say it may not read what it
// may) nor a 500, and the caller's log names the fault.
beforeAll(async () => {
  const [grpc, http] = [await freePort(), await freePort()];
  await start(
    'services/git-worker/dist/main.js',
    'git-worker-other-secret',
    {
      GIT_WORKER_GRPC_PORT: String(grpc),
      GIT_WORKER_HTTP_PORT: String(http),
      PRINCIPAL_SECRET: 'not-the-facades-secret-'.repeat(2),
    },
    http,
  );
  const refusingWorker = { GIT_WORKER_SHARDS: `default=127.0.0.1:${grpc};http://127.0.0.1:${http}` };
  // Repository and merge requests replicas on that worker, on a database and a Redis database of
  // their own: their outbox relays and event consumers must take none of the stack's events.
  admin = createSql({ url: stack.env.DATABASE_URL!, schema: 'public', max: 1 });
  await admin.unsafe(`create database ${database}`);
  const isolated = {
    ...refusingWorker,
    DATABASE_URL: withPath(stack.env.DATABASE_URL!, `/${database}`),
    REDIS_URL: withPath(stack.env.REDIS_URL!, '/9'),
  };
  const [repository, mergeRequests, facadePort, gatewayPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  await start(
    'services/repository/dist/main.js',
    'repository-refused',
    { ...isolated, REPOSITORY_PORT: String(repository) },
    repository,
  );
  await start(
    'services/mergerequests/dist/main.js',
    'mergerequests-refused',
    { ...isolated, MERGEREQUESTS_PORT: String(mergeRequests) },
    mergeRequests,
  );
  const refusedSubgraphs = {
    REPOSITORY_URL: `http://127.0.0.1:${repository}`,
    MERGEREQUESTS_URL: `http://127.0.0.1:${mergeRequests}`,
  };
  await start(
    'rest-facade/dist/main.js',
    'rest-facade-refused',
    { ...refusingWorker, ...refusedSubgraphs, PORT: String(facadePort) },
    facadePort,
  );
  await start(
    'gateway/dist/main.js',
    'gateway-refused',
    { ...refusedSubgraphs, GATEWAY_PORT: String(gatewayPort) },
    gatewayPort,
  );
  facade = `http://127.0.0.1:${facadePort}`;
  gateway = `http://127.0.0.1:${gatewayPort}/graphql`;
  owner = await createUser();
  project = await createProject(owner.token);
  const wc = await workingCopy({ 'README.md': '# hello\n' });
  ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
  readme = ok(await git(wc, 'rev-parse', 'master:README.md')).stdout.trim();
}, 120_000);
afterAll(async () => {
  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null ? null : new Promise((done) => child.once('exit', done));
  await Promise.all(replicas.map((child) => (child.kill('SIGTERM'), exited(child))));
  await admin?.unsafe(`drop database if exists ${database} with (force)`);
  await admin?.end();
});

const call = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}/api/v3/projects/${project.id}/${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': owner.token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const logOf = (name: string) => readFileSync(join(stack.dir, `${name}.log`), 'utf8');

describe('a git worker refusing the facade’s signed claims', () => {
  // Over the worker's HTTP port (blobs, archives) and over its gRPC streams (the files API's GetBlob).
  it.each([
    'raw_blobs/<readme>',
    'blobs/master?filepath=README.md',
    'archive.tar.gz?sha=master',
    'files?file_path=README.md&ref=master',
  ])('answers %s with a v3 503', async (path) => {
    const target = `repository/${path.replace('<readme>', readme)}`;
    // The stack's own facade and worker share a secret: the same download is served there.
    const served = await call(stack.baseUrl, 'GET', target);
    expect([served.status, (await served.arrayBuffer()).byteLength > 0]).toEqual([200, true]);
    const refused = await call(facade, 'GET', target);
    expect([refused.status, await refused.json()]).toEqual([503, { message: '503 Service Unavailable' }]);
  });

  it('fails a clone with a 503 rather than the worker’s 403, and logs what to fix', async () => {
    const url = remoteUrl(project.path_with_namespace, owner.username, owner.token);
    const throughRefused = Object.assign(new URL(url), { host: new URL(facade).host });
    const refused = await git(stack.dir, 'ls-remote', throughRefused.toString());
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/\b503\b/);
    expect(ok(await git(stack.dir, 'ls-remote', url)).stdout).toMatch(/refs\/heads\/master/);
    expect(logOf('rest-facade-refused')).toMatch(/PRINCIPAL_SECRET differs between them/);
  });
});

describe('a git worker refusing the services’ signed calls', () => {
  it('answers the repository and merge requests routes with a v3 503', async () => {
    const served = await call(stack.baseUrl, 'GET', 'repository/branches');
    expect(served.status).toBe(200);
    const branches = await call(facade, 'GET', 'repository/branches');
    expect([branches.status, await branches.json()]).toEqual([503, { message: '503 Service Unavailable' }]);
    const opened = await call(facade, 'POST', 'merge_requests', {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Refused',
    });
    expect([opened.status, await opened.json()]).toEqual([503, { message: '503 Service Unavailable' }]);
    // The services say what to fix; nothing was an unexpected failure.
    for (const service of ['repository-refused', 'mergerequests-refused']) {
      expect(logOf(service)).toMatch(/the git worker refused \S+ signed call: PRINCIPAL_SECRET differs/);
      expect(logOf(service)).not.toMatch(/unexpected error/);
    }
  });

  it('answers GraphQL callers with SERVICE_UNAVAILABLE', async () => {
    const ask = async (query: string) => {
      const response = await fetch(gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'PRIVATE-TOKEN': owner.token },
        body: JSON.stringify({ query, variables: { id: project.id } }),
      });
      return ((await response.json()) as { errors?: Array<{ message: string; extensions: { code: string } }> })
        .errors?.[0];
    };
    const refusal = { message: '503 Service Unavailable', extensions: { code: 'SERVICE_UNAVAILABLE' } };
    expect(
      await ask('query ($id: Int!) { project(id: $id) { repository { branches { nodes { name } } } } }'),
    ).toMatchObject(refusal);
    expect(
      await ask(
        'mutation ($id: Int!) { createMergeRequest(input: { projectId: $id, sourceBranch: "feature", targetBranch: "master", title: "Refused" }) { mergeRequest { id: databaseId } } }',
      ),
    ).toMatchObject(refusal);
  });
});
