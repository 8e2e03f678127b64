import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@hub/local';
import { request } from 'undici';
import { createProject, createUser, stack, type TestProject, type TestUser } from '../support/api';
import { startReplica } from '../support/replica';

// The stack's facade embeds its gateway (GATEWAY_MODE=embedded, the launcher's default); a second
// facade started here sends the same documents to the gateway process over HTTP (remote). Both
// must answer every request alike: data, refusals from the principal resolution (401, sudo 403
// and 404), a private project's 404, validation errors and pagination.

describe('the facade with an embedded or a remote gateway', () => {
  let remote: ChildProcess;
  let remoteUrl: string;
  let user: TestUser;
  let project: TestProject;

  beforeAll(async () => {
    const port = await freePort();
    remoteUrl = `http://127.0.0.1:${port}/api/v3`;
    remote = await startReplica(
      'rest-facade/dist/main.js',
      'rest-facade-remote',
      { PORT: String(port), GATEWAY_MODE: 'remote', LOG_LEVEL: 'warn' },
      `http://127.0.0.1:${port}/readyz`,
    );
    user = await createUser();
    project = await createProject(stack.rootToken, { visibility_level: 0 });
  });
  afterAll(() => {
    remote?.kill('SIGTERM');
  });

  it('runs embedded in the stack (its facade says so when it starts)', () => {
    expect(stack.env.GATEWAY_MODE).toBe('embedded');
    const log = readFileSync(join(stack.dir, 'rest-facade.log'), 'utf8');
    expect(log).toMatch(/"gateway":"embedded".*rest facade listening/);
  });

  // Rows of five: jest.each hands a test function with more parameters than its row a done callback.
  const requests: Array<[string, string, string, Record<string, string>, unknown]> = [
    ['the current user', 'GET', '/user', {}, null],
    ['a bad token', 'GET', '/user', { 'PRIVATE-TOKEN': 'not-a-token' }, null],
    ['no credentials', 'GET', '/user', { 'PRIVATE-TOKEN': '' }, null],
    ['sudo by a non-admin', 'GET', '/user', { SUDO: '1', 'PRIVATE-TOKEN': 'USER' }, null],
    ['sudo to nobody', 'GET', '/user', { SUDO: 'nobody-at-all' }, null],
    ['a private project to a stranger', 'GET', '/projects/PROJECT', { 'PRIVATE-TOKEN': 'USER' }, null],
    ['a private project to its owner', 'GET', '/projects/PROJECT', {}, null],
    ['a missing project', 'GET', '/projects/999999999', {}, null],
    ['a page of projects', 'GET', '/projects?per_page=2&page=1', {}, null],
    ['a create with no name', 'POST', '/projects', {}, {}],
  ];

  it.each(requests)('answers %s alike', async (_what, method, path, headers, body) => {
    const send = async (base: string) => {
      const filled = Object.fromEntries(
        Object.entries({ 'PRIVATE-TOKEN': stack.rootToken, ...headers })
          .map(([name, value]) => [name, value === 'USER' ? user.token : value])
          .filter(([, value]) => value !== ''),
      );
      // undici's request, as the other suites use: jest's sandbox and fetch's body streams do not mix.
      const response = await request(base + path.replace('PROJECT', String(project.id)), {
        method: method as 'GET' | 'POST',
        headers: { ...filled, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const link = String(response.headers.link ?? '').replaceAll(base, 'BASE');
      return {
        status: response.statusCode,
        body: (await response.body.json()) as { message?: unknown },
        total: response.headers['x-total'],
        link,
      };
    };
    const embedded = await send(stack.restUrl);
    expect(await send(remoteUrl)).toEqual(embedded);
    // Each case says something: the list is not empty, a refusal has its v3 message.
    expect(embedded.status === 200 ? embedded.body : embedded.body.message).toBeTruthy();
  });
});
