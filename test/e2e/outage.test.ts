import { rmSync } from 'node:fs';
import { startStack, type Stack } from '@hub/local';
import { isolatedEnv, tempDir } from '../support/global-setup';

// A private stack: stopping its processes must not disturb the tests sharing the global one.
describe('when a service is down', () => {
  let stack: Stack;
  let dir: string;
  const get = async (path: string, token: string | null) => {
    const response = await fetch(stack.restUrl + path, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
  };

  beforeAll(async () => {
    dir = tempDir('hub-outage-');
    stack = await startStack({
      dataDir: dir,
      env: isolatedEnv(),
      freePorts: true,
      logs: { kind: 'files', dir },
      log: () => {},
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 with a JSON message while identity is down, and recovers when it is back', async () => {
    expect((await get('/user', stack.rootToken)).status).toBe(200);
    await stack.stopProcess('identity');
    const down = await get('/users', 'a-token-nobody-has-cached');
    expect(down.status).toBe(503);
    expect(down.type).toMatch(/^application\/json/);
    expect(down.body).toEqual({ message: '503 Service Unavailable' });
    // A credential the gateway had cached still authenticates; the query itself then needs identity.
    const cached = await get('/user', stack.rootToken);
    expect(cached.status).toBe(503);
    const ready = await fetch(`${stack.urls.gateway}/readyz`);
    expect(ready.status).toBe(503);
    await stack.restart('identity');
    expect((await get('/user', stack.rootToken)).status).toBe(200);
  }, 60_000);

  it('keeps creating projects while membership is down; access follows from the event once it is back', async () => {
    await stack.stopProcess('membership');
    const created = await fetch(stack.restUrl + '/projects', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': stack.rootToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `made-during-outage-${Date.now()}` }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // Reading needs membership's access answer; other routes keep working.
    const read = await get(`/projects/${id}`, stack.rootToken);
    expect([read.status, read.body]).toEqual([503, { message: '503 Service Unavailable' }]);
    expect((await get('/user', stack.rootToken)).status).toBe(200);
    await stack.restart('membership');
    // Membership learns of the project from its project.created event and makes root, its creator, a Master.
    const deadline = Date.now() + 10_000;
    let after = await get(`/projects/${id}`, stack.rootToken);
    while (after.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await get(`/projects/${id}`, stack.rootToken);
    }
    expect(after.status).toBe(200);
    expect((after.body as { permissions: { project_access: unknown } }).permissions.project_access).toEqual({
      access_level: 40,
      notification_level: 3,
    });
  }, 60_000);

  it('answers blob and archive downloads and tree reads 503 with a JSON message while the git worker is down, and serves them once it is back', async () => {
    const created = await fetch(stack.restUrl + '/projects', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': stack.rootToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `blobs-during-outage-${Date.now()}` }),
    });
    const { id } = (await created.json()) as { id: number };
    const repo = (path: string) => get(`/projects/${id}/repository${path}`, stack.rootToken);
    const zeros = '0'.repeat(40);
    // The repository is made from the creation event: until then the blob is as missing as after.
    const deadline = Date.now() + 10_000;
    while (
      ((await repo(`/raw_blobs/${zeros}`)).body as { message?: string }).message !== '404 Blob Not Found' &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await repo(`/raw_blobs/${zeros}`)).toMatchObject({ status: 404, body: { message: '404 Blob Not Found' } });
    await stack.stopProcess('git-worker');
    const unavailable = { status: 503, body: { message: '503 Service Unavailable' } };
    expect(await repo(`/raw_blobs/${zeros}`)).toMatchObject(unavailable);
    expect(await repo('/blobs/master?filepath=README.md')).toMatchObject(unavailable);
    expect(await repo('/tree')).toMatchObject(unavailable);
    expect(await repo('/archive.tar.gz?sha=master')).toMatchObject(unavailable);
    await stack.restart('git-worker');
    expect(await repo(`/raw_blobs/${zeros}`)).toMatchObject({ status: 404, body: { message: '404 Blob Not Found' } });
  }, 60_000);

  it('a facade with a remote gateway answers 502 with a JSON message while the gateway is down; an embedded one goes on', async () => {
    const remote = await stack.startReplica('rest-facade', { GATEWAY_MODE: 'remote' });
    const viaRemote = async () => {
      const response = await fetch(`${remote.url}/api/v3/user`, { headers: { 'PRIVATE-TOKEN': stack.rootToken } });
      return { status: response.status, body: await response.json() };
    };
    expect((await viaRemote()).status).toBe(200);
    await stack.stopProcess('gateway');
    expect(await viaRemote()).toEqual({ status: 502, body: { message: '502 Bad Gateway' } });
    expect((await fetch(`${remote.url}/readyz`)).status).toBe(503);
    expect((await get('/user', stack.rootToken)).status).toBe(200);
    expect((await fetch(`${stack.urls['rest-facade']}/readyz`)).status).toBe(200);
    await stack.restart('gateway');
    expect((await viaRemote()).status).toBe(200);
  }, 60_000);
});
