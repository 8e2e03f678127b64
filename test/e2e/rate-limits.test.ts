import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITED_HEADER, signLimited, signPrincipal } from '@hub/common';
import { freePort } from '@hub/local';
import { request } from 'undici';
import { addMember, api, createProject, createUser, eventually, stack, unique } from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';
import { startReplica } from '../support/replica';

// The limits counted in Redis, seen through replicas of the facade and the gateway started here
// with low limits beside the stack's own (whose counts they neither spend nor read: the counts
// are kept per setting). Every request comes from 127.0.0.1, as one address.

const replicas: ChildProcess[] = [];

async function startLimitedReplica(kind: 'rest-facade' | 'gateway', settings: Record<string, string>): Promise<string> {
  const port = await freePort();
  const portVariable = kind === 'gateway' ? 'GATEWAY_PORT' : 'PORT';
  const url = `http://127.0.0.1:${port}`;
  replicas.push(
    await startReplica(
      `${kind}/dist/main.js`,
      `${kind}-limits-${port}`,
      { [portVariable]: String(port), LOG_LEVEL: 'info', ...settings },
      `${url}/readyz`,
    ),
  );
  return url;
}

afterAll(() => {
  for (const child of replicas) child.kill('SIGTERM');
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: any;
}

async function call(
  url: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers['PRIVATE-TOKEN'] = options.token;
  const response = await request(url + path, {
    method: method as 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.body.text();
  const retryAfter = response.headers['retry-after'];
  return {
    status: response.statusCode,
    retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
    body: text ? JSON.parse(text) : null,
  };
}

function expectRefused(answer: Answer, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

describe('request rate limits', () => {
  const WINDOW = 60;
  let facades: [string, string];

  beforeAll(async () => {
    const settings = {
      RATE_LIMIT_PER_USER: '8',
      RATE_LIMIT_PER_IP: '5',
      RATE_LIMIT_WINDOW_S: String(WINDOW),
      AUTH_FAILURES_PER_IP: '0',
      AUTH_FAILURES_PER_LOGIN: '0',
    };
    facades = [await startLimitedReplica('rest-facade', settings), await startLimitedReplica('rest-facade', settings)];
  }, 60_000);

  it('counts a user’s requests across replicas and answers the one over the limit 429 with Retry-After and a v3 message', async () => {
    const [alice, bob] = await Promise.all([createUser(), createUser()]);
    // Alternating between the two replicas: the budget is one, in Redis.
    for (let i = 0; i < 8; i++)
      expect((await call(facades[i % 2], 'GET', '/api/v3/user', { token: alice.token })).status).toBe(200);
    const refused = await call(facades[0], 'GET', '/api/v3/user', { token: alice.token });
    expectRefused(refused, WINDOW);
    expect(refused.body).toEqual({ message: '429 Too Many Requests' });
    expectRefused(await call(facades[1], 'GET', '/api/v3/user', { token: alice.token }), WINDOW);
    // Another user's budget is their own; the token as a parameter is the same credential.
    expect((await call(facades[1], 'GET', '/api/v3/user', { token: bob.token })).status).toBe(200);
    expectRefused(await call(facades[1], 'GET', `/api/v3/user?private_token=${alice.token}`), WINDOW);
  });

  it('counts requests without credentials per address', async () => {
    for (let i = 0; i < 5; i++) expect((await call(facades[i % 2], 'GET', '/api/v3/projects/1')).status).not.toBe(429);
    const refused = await call(facades[1], 'GET', '/api/v3/projects/1');
    expectRefused(refused, WINDOW);
    expect(refused.body).toEqual({ message: '429 Too Many Requests' });
  });

  it('limits the gateway’s public endpoint the same way', async () => {
    const gateway = await startLimitedReplica('gateway', {
      RATE_LIMIT_PER_USER: '3',
      RATE_LIMIT_PER_IP: '2',
      RATE_LIMIT_WINDOW_S: String(WINDOW),
      AUTH_FAILURES_PER_IP: '0',
    });
    const user = await createUser();
    const ask = (token?: string) =>
      call(gateway, 'POST', '/graphql', { token, body: { query: '{ viewer { id: databaseId } }' } });
    for (let i = 0; i < 2; i++) expect((await ask()).status).toBe(200);
    const anonymous = await ask();
    expectRefused(anonymous, WINDOW);
    expect(anonymous.body.errors[0]).toMatchObject({
      message: '429 Too Many Requests',
      extensions: { code: 'TOO_MANY_REQUESTS' },
    });
    for (let i = 0; i < 3; i++) expect((await ask(user.token)).status).toBe(200);
    expectRefused(await ask(user.token), WINDOW);
  }, 60_000);
});

describe('failed-authentication limits', () => {
  const WINDOW = 900;
  const RETRY_INTERVAL = 2;
  let facades: [string, string];

  beforeAll(async () => {
    const settings = {
      RATE_LIMIT_PER_USER: '0',
      RATE_LIMIT_PER_IP: '0',
      AUTH_FAILURES_PER_IP: '8',
      AUTH_FAILURES_PER_LOGIN: '3',
      AUTH_FAILURE_WINDOW_S: String(WINDOW),
      AUTH_RETRY_INTERVAL_S: String(RETRY_INTERVAL),
    };
    facades = [await startLimitedReplica('rest-facade', settings), await startLimitedReplica('rest-facade', settings)];
  }, 60_000);

  it('stops password guessing for a login after a few failures, across replicas and both sign-in routes, and lets the right password in once an interval', async () => {
    const user = await createUser();
    const session = (url: string, password: string) =>
      call(url, 'POST', '/api/v3/session', { body: { login: user.username, password } });
    const oauth = (url: string, password: string) =>
      call(url, 'POST', '/oauth/token', {
        body: { grant_type: 'password', username: user.username.toUpperCase(), password },
      });

    // Failures, then a success: the success starts the login's count again.
    expect((await session(facades[0], 'wrong-1')).status).toBe(401);
    expect((await session(facades[1], 'wrong-2')).status).toBe(401);
    expect((await session(facades[0], user.password)).status).toBe(201);

    expect((await session(facades[0], 'wrong-3')).status).toBe(401);
    expect((await oauth(facades[1], 'wrong-4')).status).toBe(401);
    expect((await session(facades[1], 'wrong-5')).status).toBe(401);
    // Past the login's budget: this interval's one check, a wrong password, is stopped with 429...
    const refused = await oauth(facades[0], 'wrong-6');
    expectRefused(refused, WINDOW);
    expect(refused.body).toEqual({ message: '429 Too Many Requests' });
    // ...and nothing more is checked this interval, the right password included.
    expectRefused(await session(facades[1], user.password), RETRY_INTERVAL);
    expectRefused(await oauth(facades[0], 'wrong-7'), RETRY_INTERVAL);
    // The owner is slowed down, never locked out: the next interval's check lets the password in.
    await eventually(async () => expect((await session(facades[1], user.password)).status).toBe(201), 10_000);
    // The stack's own facade does not share the test's settings, so its counts are apart.
    expect(
      (
        await call(stack.baseUrl, 'POST', '/api/v3/session', {
          body: { login: user.username, password: user.password },
        })
      ).status,
    ).toBe(201);
  });

  it('stops an address that keeps failing with 429 for every refused credential, and lets valid ones through', async () => {
    const user = await createUser();
    const spent = async () => (await call(facades[0], 'GET', '/api/v3/user', { token: unique('bad') })).status;
    const answers: number[] = [];
    for (let i = 0; i < 12 && answers.at(-1) !== 429; i++) answers.push(await spent());
    // The sign-ins above spent most of the address's budget (perhaps all of it).
    expect(answers.at(-1)).toBe(429);
    expectRefused(await call(facades[1], 'GET', '/api/v3/user', { token: unique('bad') }), WINDOW);
    // A valid token is checked and passes, on either replica.
    expect((await call(facades[1], 'GET', '/api/v3/user', { token: user.token })).status).toBe(200);
    expect((await call(facades[0], 'GET', '/api/v3/user', { token: user.token })).status).toBe(200);
    // A right password gets in within one retry interval of the address.
    await eventually(
      async () =>
        expect(
          (
            await call(facades[0], 'POST', '/api/v3/session', {
              body: { login: user.username, password: user.password },
            })
          ).status,
        ).toBe(201),
      10_000,
    );
    // Requests without credentials are not authentications: they go on.
    expect((await call(facades[0], 'GET', '/api/v3/projects/1')).status).not.toBe(429);
  });
});

describe('a 401 a rule gives a known user', () => {
  it('is no failed authentication: a developer refused an accept into a protected branch again and again keeps their address', async () => {
    const facade = await startLimitedReplica('rest-facade', {
      RATE_LIMIT_PER_USER: '0',
      RATE_LIMIT_PER_IP: '0',
      AUTH_FAILURES_PER_IP: '2',
      AUTH_FAILURE_WINDOW_S: '900',
    });
    const [owner, developer] = await Promise.all([createUser(), createUser()]);
    const project = await createProject(owner.token);
    await addMember(project.id, developer.id, 30);
    const wc = await workingCopy({ 'README.md': 'base\n' });
    ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
    await git(wc, 'checkout', '-q', '-b', 'feature');
    await commitFiles(wc, { 'f.txt': 'f\n' }, 'feature');
    ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'feature'));
    // master was protected by its first push: only Masters may merge into it.
    await eventually(async () =>
      expect(
        (await api('GET', `/projects/${project.id}/repository/branches/master`, { token: owner.token })).body.protected,
      ).toBe(true),
    );
    const mr = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: developer.token,
      body: { source_branch: 'feature', target_branch: 'master', title: 'f' },
    });
    expect(mr.status).toBe(201);
    const answers: number[] = [];
    for (let i = 0; i < 4; i++)
      answers.push(
        (
          await call(facade, 'PUT', `/api/v3/projects/${project.id}/merge_request/${mr.body.id}/merge`, {
            token: developer.token,
          })
        ).status,
      );
    expect(answers).toEqual([401, 401, 401, 401]);
    expect((await call(facade, 'GET', '/api/v3/user', { token: developer.token })).status).toBe(200);
    // A refused token still counts: two, and the address's next bad token is stopped; the
    // developer's own token is still good.
    for (let i = 0; i < 2; i++)
      expect((await call(facade, 'GET', '/api/v3/user', { token: unique('bad') })).status).toBe(401);
    expectRefused(await call(facade, 'GET', '/api/v3/user', { token: unique('bad') }), 900);
    expect((await call(facade, 'GET', '/api/v3/user', { token: developer.token })).status).toBe(200);
  });
});

describe('failed sign-ins through the gateway', () => {
  it('counts a refused createSession (a GraphQL error in a 200) as a failure, and a success as none', async () => {
    const gateway = await startLimitedReplica('gateway', {
      RATE_LIMIT_PER_USER: '0',
      RATE_LIMIT_PER_IP: '0',
      AUTH_FAILURES_PER_IP: '0',
      AUTH_FAILURES_PER_LOGIN: '2',
      AUTH_FAILURE_WINDOW_S: '900',
      AUTH_RETRY_INTERVAL_S: '2',
    });
    const user = await createUser();
    const signIn = (password: string) =>
      call(gateway, 'POST', '/graphql', {
        body: {
          // The login inside $input, as a client of the payload's shape sends it: counted for that login.
          query:
            'mutation ($input: CreateSessionInput!) { createSession(input: $input) { session { user { id: databaseId } } } }',
          variables: { input: { login: user.username, password } },
        },
      });
    expect((await signIn('wrong-1')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await signIn(user.password)).body.data.createSession.session.user.id).toBe(user.id);
    expect((await signIn('wrong-2')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await signIn('wrong-3')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // Past the budget: the interval's check refuses a wrong password with 429, the rest wait.
    const refused = await signIn('wrong-4');
    expectRefused(refused, 900);
    expect(refused.body.errors[0]).toMatchObject({
      message: '429 Too Many Requests',
      extensions: { code: 'TOO_MANY_REQUESTS' },
    });
    expectRefused(await signIn(user.password), 2);
    await eventually(
      async () => expect((await signIn(user.password)).body.data?.createSession.session.user.id).toBe(user.id),
      10_000,
    );
  }, 60_000);
});

describe('failed sign-ins through git over HTTP', () => {
  it('counts basic credentials git sends as sign-ins: a login guessed twice is stopped, its password let in once an interval', async () => {
    const facade = await startLimitedReplica('rest-facade', {
      AUTH_FAILURES_PER_IP: '0',
      AUTH_FAILURES_PER_LOGIN: '2',
      AUTH_FAILURE_WINDOW_S: '900',
      AUTH_RETRY_INTERVAL_S: '2',
    });
    const user = await createUser();
    const project = await createProject(user.token);
    const refs = async (secret: string) => {
      const response = await request(`${facade}/${project.path_with_namespace}.git/info/refs?service=git-upload-pack`, {
        headers: { authorization: `Basic ${Buffer.from(`${user.username}:${secret}`).toString('base64')}` },
      });
      await response.body.dump();
      return { status: response.statusCode, retryAfter: response.headers['retry-after'] };
    };
    expect((await refs(user.password)).status).toBe(200);
    expect((await refs(user.token)).status).toBe(200);
    expect((await refs('wrong-1')).status).toBe(401);
    expect((await refs(user.password)).status).toBe(200);
    expect((await refs('wrong-2')).status).toBe(401);
    expect((await refs('wrong-3')).status).toBe(401);
    const refused = await refs('wrong-4');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await refs(user.password)).status).toBe(429);
    await eventually(async () => expect((await refs(user.password)).status).toBe(200), 10_000);
  }, 60_000);
});

describe('a facade with a remote gateway', () => {
  // The gateway is reached from the facade's address for all of the facade's clients: it must not
  // count them as one. Every request here comes from 127.0.0.1, so the facades' own failure limits
  // are off (they would stop this one address); the gateway's are low and counted apart (window 901).
  const WINDOW = 901;
  const gatewayLimits = {
    RATE_LIMIT_PER_USER: '0',
    RATE_LIMIT_PER_IP: '0',
    AUTH_FAILURES_PER_IP: '3',
    AUTH_FAILURES_PER_LOGIN: '2',
    AUTH_FAILURE_WINDOW_S: String(WINDOW),
  };
  const facadeLimits = {
    RATE_LIMIT_PER_USER: '0',
    RATE_LIMIT_PER_IP: '0',
    AUTH_FAILURES_PER_IP: '0',
    AUTH_FAILURES_PER_LOGIN: '0',
  };
  let gateway: string;
  let facade: string;

  beforeAll(async () => {
    gateway = await startLimitedReplica('gateway', gatewayLimits);
    facade = await startLimitedReplica('rest-facade', {
      ...facadeLimits,
      GATEWAY_MODE: 'remote',
      GATEWAY_URL: gateway,
    });
  }, 60_000);

  it('lets one client’s bad tokens and wrong passwords lock out no other client of the facade', async () => {
    const [alice, mallory] = await Promise.all([createUser(), createUser()]);
    for (let i = 0; i < 6; i++)
      expect((await call(facade, 'GET', '/api/v3/user', { token: unique('bad') })).status).toBe(401);
    expect((await call(facade, 'GET', '/api/v3/user', { token: alice.token })).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect(
        (await call(facade, 'POST', '/api/v3/session', { body: { login: mallory.username, password: `wrong-${i}` } }))
          .status,
      ).toBe(401);
    expect(
      (await call(facade, 'POST', '/api/v3/session', { body: { login: mallory.username, password: mallory.password } }))
        .status,
    ).toBe(201);
  }, 60_000);

  it('honours no forged header sent straight to the gateway, and a refusal reaches the client as 429 with Retry-After', async () => {
    const alice = await createUser();
    const forged = [
      signLimited('203.0.113.9', 'not-the-secret-'.repeat(3)),
      signPrincipal({ userId: null, username: null, isAdmin: false, impersonatorId: null }, stack.env.PRINCIPAL_SECRET),
      'garbage',
    ];
    const ask = async (token: string, header: string) => {
      const response = await request(`${gateway}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'private-token': token, [LIMITED_HEADER]: header },
        body: JSON.stringify({ query: '{ viewer { id: databaseId } }' }),
      });
      await response.body.dump();
      return response.statusCode;
    };
    for (const header of forged) expect(await ask(unique('bad'), header)).toBe(401);
    // Each forged call counted against this address: its next bad token is stopped, a valid one passes.
    expect(await ask(unique('bad'), forged[0])).toBe(429);
    expect(await ask(alice.token, forged[0])).toBe(200);
    // A facade whose secret is not the gateway's cannot reach the internal contract at all: its
    // clients are told the service is unavailable, and its log says what to fix.
    const stranger = await startLimitedReplica('rest-facade', {
      ...facadeLimits,
      GATEWAY_MODE: 'remote',
      GATEWAY_URL: gateway,
      PRINCIPAL_SECRET: 'not-the-secret-'.repeat(3),
    });
    const refused = await call(stranger, 'GET', '/api/v3/user', { token: unique('bad') });
    expect([refused.status, refused.body]).toEqual([503, { message: '503 Service Unavailable' }]);
    const strangerLog = join(stack.dir, `rest-facade-limits-${new URL(stranger).port}.log`);
    // The replica's output reaches its log file through a pipe: the line may land after the answer.
    await eventually(async () => expect(readFileSync(strangerLog, 'utf8')).toMatch(/PRINCIPAL_SECRET differs/));
    // The facade holding the secret is not counted as one address: its clients' bad tokens are
    // told 401, and their good ones pass.
    expect((await call(facade, 'GET', '/api/v3/user', { token: unique('bad') })).status).toBe(401);
    expect((await call(facade, 'GET', '/api/v3/user', { token: alice.token })).status).toBe(200);
  }, 60_000);
});

describe('valid credentials from an address that keeps failing', () => {
  it('pass after 200 wrong tokens from that address, while the wrong ones are stopped', async () => {
    // The default budget (the stack's is off), in a window of its own so no other facade shares its counts.
    const facade = await startLimitedReplica('rest-facade', {
      AUTH_FAILURES_PER_IP: '100',
      AUTH_FAILURE_WINDOW_S: '899',
    });
    const user = await createUser();
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => call(facade, 'GET', '/api/v3/user', { token: unique('wrong') })),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(90);
    expect(statuses.slice(-50).every((s) => s === 429)).toBe(true);
    expect((await call(facade, 'GET', '/api/v3/user', { token: user.token })).status).toBe(200);
    expect((await call(facade, 'GET', `/api/v3/user?private_token=${user.token}`)).status).toBe(200);
    const session = await call(facade, 'POST', '/api/v3/session', {
      body: { login: user.username, password: user.password },
    });
    expect(session.status).toBe(201);
  }, 60_000);
});

describe('behind a load balancer', () => {
  const limits = {
    RATE_LIMIT_PER_USER: '0',
    RATE_LIMIT_PER_IP: '3',
    RATE_LIMIT_WINDOW_S: '61',
    AUTH_FAILURES_PER_IP: '2',
    AUTH_FAILURE_WINDOW_S: '898',
  };
  const from = async (url: string, forwardedFor: string, token?: string) => {
    const headers: Record<string, string> = { 'x-forwarded-for': forwardedFor };
    if (token) headers['private-token'] = token;
    const response = await request(`${url}/api/v3/user`, { headers });
    await response.body.dump();
    return response.statusCode;
  };

  it('counts each client behind a trusted proxy apart, by its forwarded address', async () => {
    const facade = await startLimitedReplica('rest-facade', { ...limits, TRUSTED_PROXIES: '127.0.0.1/32, 10.0.0.0/8' });
    const [a, b] = ['198.51.100.1', '198.51.100.2'];
    const first: number[] = [];
    for (let i = 0; i < 3; i++) first.push(await from(facade, `${a}, 10.1.2.3`, unique('bad')));
    expect(first).toEqual([401, 401, 429]);
    // Another client behind the same proxies has a budget of its own.
    expect(await from(facade, `${b}, 10.1.2.3`, unique('bad'))).toBe(401);
    // A forged entry left of what the proxy saw changes nothing: still client a.
    expect(await from(facade, `${b}, ${a}, 10.1.2.3`, unique('bad'))).toBe(429);
    // Requests without credentials count per client too.
    const anonymous: number[] = [];
    for (let i = 0; i < 4; i++) anonymous.push(await from(facade, a));
    expect(anonymous).toEqual([401, 401, 401, 429]);
    expect(await from(facade, b)).toBe(401);
  }, 60_000);

  it('believes no X-Forwarded-For from an untrusted peer', async () => {
    const facade = await startLimitedReplica('rest-facade', { ...limits, AUTH_FAILURE_WINDOW_S: '897' });
    const answers: number[] = [];
    for (let i = 0; i < 3; i++) answers.push(await from(facade, `203.0.113.${i + 1}`, unique('bad')));
    expect(answers).toEqual([401, 401, 429]);
  }, 60_000);

  it('takes the gateway’s client address from trusted proxies alike', async () => {
    const gateway = await startLimitedReplica('gateway', {
      ...limits,
      AUTH_FAILURE_WINDOW_S: '896',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    const ask = async (forwardedFor: string) => {
      const response = await request(`${gateway}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'private-token': unique('bad'),
          'x-forwarded-for': forwardedFor,
        },
        body: JSON.stringify({ query: '{ viewer { id: databaseId } }' }),
      });
      await response.body.dump();
      return response.statusCode;
    };
    expect([await ask('198.51.100.77'), await ask('198.51.100.77'), await ask('198.51.100.77')]).toEqual([
      401, 401, 429,
    ]);
    expect(await ask('198.51.100.78')).toBe(401);
  }, 60_000);

  it('exempts the allowlisted addresses from every limit', async () => {
    const facade = await startLimitedReplica('rest-facade', {
      ...limits,
      AUTH_FAILURE_WINDOW_S: '895',
      TRUSTED_PROXIES: '127.0.0.1/32',
      RATE_LIMIT_ALLOWLIST: '192.0.2.0/24',
    });
    const allowed: number[] = [];
    for (let i = 0; i < 5; i++) allowed.push(await from(facade, '192.0.2.10', unique('bad')));
    for (let i = 0; i < 5; i++) allowed.push(await from(facade, '192.0.2.10'));
    expect(allowed.every((s) => s === 401)).toBe(true);
    const other: number[] = [];
    for (let i = 0; i < 3; i++) other.push(await from(facade, '198.51.100.200', unique('bad')));
    expect(other).toEqual([401, 401, 429]);
  }, 60_000);
});
