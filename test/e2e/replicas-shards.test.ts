import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, type Stack } from '@hub/local';
import { internalGraphql } from '../support/api';
import { isolatedEnv, tempDir } from '../support/global-setup';
import { commitFiles, git, ok, workingCopy } from '../support/git';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

// A private stack as ops would scale one: two facades, two gateways, two projects services, two
// hook workers and two git worker shards, with the API used across all of them. Long cache TTLs:
// only the invalidation events can make a reset token stop working on every replica.
describe('several replicas and two git shards', () => {
  let stack: Stack;
  let dir: string;
  let receiver: Receiver;
  let facades: string[];
  let gateways: string[];

  const rest = async (base: string, method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v3${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
  const graphql = async (base: string, query: string, token: string) => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'PRIVATE-TOKEN': token },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const root = () => stack.rootToken;
  // The shard is the internal contract's (the facade's), asked of the second gateway replica.
  const storageOf = async (id: number) =>
    (
      await internalGraphql(
        `{ project(id: ${id}) { repositoryStorage } }`,
        {},
        { 'PRIVATE-TOKEN': root() },
        { graphqlUrl: `${gateways[1]}/graphql`, secret: stack.env.PRINCIPAL_SECRET! },
      )
    ).body.data.project.repositoryStorage as string;
  const remote = (base: string, path: string) => {
    const url = new URL(`${base}/${path}.git`);
    url.username = 'root';
    url.password = root();
    return url.toString();
  };
  const createUser = async () => {
    const username = `u${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const password = 'password-scaled';
    const created = await rest(facades[0], 'POST', '/users', root(), {
      email: `${username}@example.com`,
      password,
      username,
      name: username,
    });
    expect(created.status).toBe(201);
    const session = await fetch(`${facades[1]}/api/v3/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: username, password }),
    });
    return {
      id: created.body.id as number,
      token: ((await session.json()) as { private_token: string }).private_token,
    };
  };
  const createProject = async (base: string, name: string) => {
    const res = await rest(base, 'POST', '/projects', root(), { name, visibility_level: 20 });
    expect(res.status).toBe(201);
    return res.body as { id: number; path_with_namespace: string };
  };

  beforeAll(async () => {
    dir = tempDir('hub-e2e-scaled-');
    receiver = await startReceiver();
    stack = await startStack({
      dataDir: dir,
      env: isolatedEnv({
        PRINCIPAL_CACHE_TTL_MS: '60000',
        ACCESS_CACHE_TTL_MS: '60000',
        IMPORT_ALLOW_LOCAL: 'true',
        AUTH_FAILURES_PER_IP: '0',
      }),
      freePorts: true,
      logs: { kind: 'files', dir },
      log: () => {},
      replicas: { 'rest-facade': 2, gateway: 2, projects: 2, 'hooks-worker': 2 },
      shards: 2,
    });
    facades = [stack.urls['rest-facade'], stack.urls['rest-facade-2']];
    gateways = [stack.urls.gateway, stack.urls['gateway-2']];
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
    // KEEP_E2E_DATA=1 keeps the folder (process logs) for a look after a failure.
    if (!process.env.KEEP_E2E_DATA) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('runs every replica and shard it was asked for', () => {
    const names = stack.processes.map((p) => p.name);
    for (const name of ['rest-facade-2', 'gateway-2', 'projects-2', 'hooks-worker-2', 'git-worker-2'])
      expect(names).toContain(name);
    expect(stack.env.GIT_WORKER_SHARDS).toMatch(
      /^default=127\.0\.0\.1:\d+;http:\/\/127\.0\.0\.1:\d+,shard2=127\.0\.0\.1:\d+;http:\/\/127\.0\.0\.1:\d+$/,
    );
  });

  let onDefault: { id: number; path_with_namespace: string };
  let onSecond: { id: number; path_with_namespace: string };

  it('places projects on the least-used shard, and clones and pushes on each through either facade', async () => {
    onDefault = await createProject(facades[0], `sharded-a-${Date.now()}`);
    onSecond = await createProject(facades[1], `sharded-b-${Date.now()}`);
    expect([await storageOf(onDefault.id), await storageOf(onSecond.id)]).toEqual(['default', 'shard2']);

    for (const [i, project] of [onDefault, onSecond].entries()) {
      const work = await workingCopy({ 'README.md': `# ${project.path_with_namespace}\n` });
      ok(await git(work, 'push', '-q', remote(facades[i], project.path_with_namespace), 'master'));
      // The other facade serves the clone, from the same shard.
      const clone = join(tempDir('hub-clone-'), 'c');
      ok(await git(dir, 'clone', '-q', remote(facades[1 - i], project.path_with_namespace), clone));
      await commitFiles(clone, { 'second.txt': String(i) }, 'second');
      ok(await git(clone, 'push', '-q', 'origin', 'master'));
      const commits = await rest(facades[i], 'GET', `/projects/${project.id}/repository/commits`, root());
      expect(commits.body.map((c: { title: string }) => c.title)).toEqual(['second', 'initial commit']);
      const raw = await fetch(
        `${facades[1 - i]}/api/v3/projects/${project.id}/repository/blobs/master?filepath=second.txt`,
        { headers: { 'PRIVATE-TOKEN': root() } },
      );
      expect(await raw.text()).toBe(String(i));
    }
    // Each repository sits on its own shard's disk only.
    const roots = { default: stack.env.REPOS_ROOT!, shard2: `${stack.env.REPOS_ROOT}-shard2` };
    expect([
      existsSync(join(roots.default, `${onDefault.id}.git`)),
      existsSync(join(roots.shard2, `${onDefault.id}.git`)),
    ]).toEqual([true, false]);
    expect([
      existsSync(join(roots.default, `${onSecond.id}.git`)),
      existsSync(join(roots.shard2, `${onSecond.id}.git`)),
    ]).toEqual([false, true]);
  }, 120_000);

  it('forks across shards: the fork is a copy on the other shard, clones with its source history, and merges back into it', async () => {
    // Each shard holds one project: the fork of the one on shard2 goes to default (ties: the first).
    // Placement counts are each projects replica's own between refreshes: the second facade's
    // chain reaches projects-2, which placed onSecond and so counts both.
    const user = await createUser();
    const fork = await rest(facades[1], 'POST', `/projects/fork/${onSecond.id}`, user.token);
    expect(fork.status).toBe(201);
    expect(await storageOf(fork.body.id)).toBe('default');
    const forkRepo = join(stack.env.REPOS_ROOT!, `${fork.body.id}.git`);
    let branches: { status: number; body: any } = { status: 0, body: [] };
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      branches = await rest(facades[1], 'GET', `/projects/${fork.body.id}/repository/branches`, root());
      if (branches.body?.length) break;
    }
    expect(branches.body.map((b: { name: string }) => b.name)).toEqual(['master']);
    expect(existsSync(join(forkRepo, 'objects', 'info', 'alternates'))).toBe(false);
    const clone = join(tempDir('hub-clone-'), 'f');
    ok(await git(dir, 'clone', '-q', remote(facades[1], fork.body.path_with_namespace), clone));
    expect((await git(clone, 'log', '--format=%s')).stdout.trim().split('\n')).toEqual(['second', 'initial commit']);

    // A merge request from the fork (default) into its source (shard2): the source's shard fetches
    // the fork's branch from the fork's shard for the diff and the merge.
    await commitFiles(clone, { 'contribution.txt': 'from the fork\n' }, 'contribution');
    ok(await git(clone, 'push', '-q', 'origin', 'master:contribution'));
    const mr = await rest(facades[1], 'POST', `/projects/${fork.body.id}/merge_requests`, user.token, {
      source_branch: 'contribution',
      target_branch: 'master',
      title: 'Across shards',
      target_project_id: onSecond.id,
    });
    expect(mr.status).toBe(201);
    const changes = await rest(
      facades[0],
      'GET',
      `/projects/${onSecond.id}/merge_request/${mr.body.id}/changes`,
      root(),
    );
    expect(changes.body.files.map((f: { new_path: string }) => f.new_path)).toEqual(['contribution.txt']);
    expect(
      (await rest(facades[1], 'PUT', `/projects/${onSecond.id}/merge_request/${mr.body.id}/merge`, root())).body.state,
    ).toBe('merged');
    const merged = await fetch(
      `${facades[0]}/api/v3/projects/${onSecond.id}/repository/blobs/master?filepath=contribution.txt`,
      { headers: { 'PRIVATE-TOKEN': root() } },
    );
    expect(await merged.text()).toBe('from the fork\n');
  }, 60_000);

  it('honours a token reset on every facade and gateway replica within 2 s', async () => {
    const user = await createUser();
    // Every replica caches the principal (TTL 60 s here).
    for (const facade of facades) expect((await rest(facade, 'GET', '/user', user.token)).status).toBe(200);
    for (const gateway of gateways)
      expect((await graphql(gateway, '{ viewer { id: databaseId } }', user.token)).body.data.viewer.id).toBe(user.id);
    const reset = await graphql(gateways[0], 'mutation { resetPrivateToken(input: {}) { privateToken } }', user.token);
    const fresh = reset.body.data.resetPrivateToken.privateToken as string;
    const refusedEverywhere = async () => {
      const facadeAnswers = await Promise.all(
        facades.map(async (facade) => (await rest(facade, 'GET', '/user', user.token)).status),
      );
      const gatewayAnswers = await Promise.all(
        gateways.map(async (gateway) => (await graphql(gateway, '{ viewer { id: databaseId } }', user.token)).status),
      );
      return [...facadeAnswers, ...gatewayAnswers];
    };
    let answers = await refusedEverywhere();
    for (
      const deadline = Date.now() + 2000;
      answers.some((status) => status !== 401) && Date.now() < deadline;
      await new Promise((r) => setTimeout(r, 100))
    ) {
      answers = await refusedEverywhere();
    }
    expect(answers).toEqual([401, 401, 401, 401]);
    for (const facade of facades) expect((await rest(facade, 'GET', '/user', fresh)).body.id).toBe(user.id);
  });

  it('delivers a hook exactly once with two hook workers', async () => {
    const path = `scaled-${Date.now()}`;
    const hook = await rest(facades[1], 'POST', `/projects/${onDefault.id}/hooks`, root(), {
      url: receiver.url(path),
      push_events: true,
    });
    expect(hook.status).toBe(201);
    const pushes = 6;
    const work = join(tempDir('hub-clone-'), 'h');
    ok(await git(dir, 'clone', '-q', remote(facades[0], onDefault.path_with_namespace), work));
    for (let i = 0; i < pushes; i++) {
      await commitFiles(work, { [`hooked-${i}.txt`]: String(i) }, `hooked ${i}`);
      ok(await git(work, 'push', '-q', 'origin', 'master'));
    }
    await receiver.waitFor(path, pushes, 20_000);
    // Both workers have their chance at every job: a copy would be queued beside its original, so
    // before a later push, whose delivery ends the wait.
    await commitFiles(work, { 'marker.txt': 'marker' }, 'marker');
    ok(await git(work, 'push', '-q', 'origin', 'master'));
    await receiver.waitFor(path, pushes + 1, 20_000);
    const delivered = receiver.at(path).map((r) => r.body.commits[0].message.trim());
    expect(delivered.sort()).toEqual([...Array.from({ length: pushes }, (_, i) => `hooked ${i}`), 'marker'].sort());
  }, 60_000);

  // Last: it stops a process. The second facade's chain (its gateway, projects-2) stands alone.
  it('serves through the second replica of a subgraph: with the first projects stopped, only the first facade fails', async () => {
    await stack.stopProcess('projects');
    const [first, second] = await Promise.all(
      facades.map((facade) => rest(facade, 'GET', `/projects/${onSecond.id}`, root())),
    );
    expect([first.status >= 500, second.status, second.body.id]).toEqual([true, 200, onSecond.id]);
  }, 60_000);
});
