import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@hub/local';
import { createProject, createUser, stack, type TestProject, type TestUser } from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';
import { startReplica } from '../support/replica';

// A git worker whose PRINCIPAL_SECRET is not the facade's (a rotation half rolled out) refuses
// every claim the facade signs. The request was the client's right: it gets a 503, not the
// worker's 403 (which would say it may not read what it may), and the facade's log names the fault.
describe('a git worker refusing the facade’s signed claims', () => {
  const replicas: ChildProcess[] = [];
  let facade: string;
  let owner: TestUser;
  let project: TestProject;
  let readme: string;

  beforeAll(async () => {
    const [grpc, http, port] = [await freePort(), await freePort(), await freePort()];
    replicas.push(
      await startReplica(
        'services/git-worker/dist/main.js',
        'git-worker-other-secret',
        {
          GIT_WORKER_GRPC_PORT: String(grpc),
          GIT_WORKER_HTTP_PORT: String(http),
          PRINCIPAL_SECRET: 'not-the-facades-secret-'.repeat(2),
        },
        `http://127.0.0.1:${http}/readyz`,
      ),
    );
    replicas.push(
      await startReplica(
        'rest-facade/dist/main.js',
        'rest-facade-refused',
        { PORT: String(port), GIT_WORKER_SHARDS: `default=127.0.0.1:${grpc};http://127.0.0.1:${http}` },
        `http://127.0.0.1:${port}/readyz`,
      ),
    );
    facade = `http://127.0.0.1:${port}`;
    owner = await createUser();
    project = await createProject(owner.token);
    const wc = await workingCopy({ 'README.md': '# hello\n' });
    ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
    readme = ok(await git(wc, 'rev-parse', 'master:README.md')).stdout.trim();
  }, 60_000);
  afterAll(() => {
    for (const child of replicas) child.kill('SIGTERM');
  });

  const download = (base: string, path: string) =>
    fetch(`${base}/api/v3/projects/${project.id}/repository/${path}`, { headers: { 'PRIVATE-TOKEN': owner.token } });

  it.each(['raw_blobs/<readme>', 'blobs/master?filepath=README.md', 'archive.tar.gz?sha=master'])(
    'answers %s with a v3 503',
    async (path) => {
      const target = path.replace('<readme>', readme);
      // The stack's own facade and worker share a secret: the same download is served there.
      const served = await download(stack.baseUrl, target);
      expect([served.status, (await served.arrayBuffer()).byteLength > 0]).toEqual([200, true]);
      const refused = await download(facade, target);
      expect([refused.status, await refused.json()]).toEqual([503, { message: '503 Service Unavailable' }]);
    },
  );

  it('fails a clone with a 503 rather than the worker’s 403, and logs what to fix', async () => {
    const url = remoteUrl(project.path_with_namespace, owner.username, owner.token);
    const throughRefused = Object.assign(new URL(url), { host: new URL(facade).host });
    const refused = await git(stack.dir, 'ls-remote', throughRefused.toString());
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/\b503\b/);
    expect(ok(await git(stack.dir, 'ls-remote', url)).stdout).toMatch(/refs\/heads\/master/);
    expect(readFileSync(join(stack.dir, 'rest-facade-refused.log'), 'utf8')).toMatch(
      /PRINCIPAL_SECRET differs between them/,
    );
  });
});
