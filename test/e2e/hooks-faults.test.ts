import { rmSync } from 'node:fs';
import { createSql, type Sql } from '@hub/common';
import { startStack, type Stack } from '@hub/local';
import { request } from 'undici';
import { eventually } from '../support/eventually';
import { isolatedEnv, tempDir } from '../support/global-setup';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

// A private stack: these tests stop Redis and add a second hook worker, which must not disturb
// the tests sharing the global one.
describe('hook delivery under faults and load', () => {
  let stack: Stack;
  let dir: string;
  let receiver: Receiver;
  let sql: Sql;

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await request(stack.restUrl + path, {
      method,
      headers: { 'PRIVATE-TOKEN': stack.rootToken, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text);
  };

  /** A project with one hook for issue events, delivering to `path` of the receiver. */
  const hookedProject = async (path: string) => {
    const project = await call('POST', '/projects', { name: `faults-${path}-${Date.now()}` });
    await call('POST', `/projects/${project.id}/hooks`, {
      url: receiver.url(path),
      issues_events: true,
      push_events: false,
    });
    return project.id as number;
  };

  /** Opens `count` issues, `parallel` at a time. */
  const openIssues = async (projectId: number, count: number, parallel = 16) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const n = next++;
          await call('POST', `/projects/${projectId}/issues`, { title: `issue ${n}` });
        }
      }),
    );
  };

  /** Every delivery to `path`: how many arrived, and how many distinct messages they were. */
  const tally = (path: string) => {
    const ids = receiver.at(path).map((r) => r.headers['webhook-id'] as string);
    return { received: ids.length, distinct: new Set(ids).size };
  };

  beforeAll(async () => {
    dir = tempDir('hub-hooks-faults-');
    receiver = await startReceiver();
    // Short retries and pauses, so a failing hook's whole story fits in a test.
    const env = isolatedEnv({ HOOK_RETRY_BASE_MS: '100', HOOK_PAUSE_AFTER_FAILURES: '3', HOOK_PAUSE_BASE_MS: '1500' });
    stack = await startStack({ dataDir: dir, env, freePorts: true, logs: { kind: 'files', dir }, log: () => {} });
    sql = createSql({ url: stack.env.DATABASE_URL!, schema: 'hooks', max: 2 });
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await receiver?.close();
    await stack?.stop();
    // KEEP_E2E_DATA=1 keeps the folder (process logs) for a look after a failure.
    if (!process.env.KEEP_E2E_DATA) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('lets the running delivery finish on SIGTERM, and sends it only once', async () => {
    receiver.respond('graceful', () => ({ status: 200, body: 'took a while', delayMs: 1500 }));
    const projectId = await hookedProject('graceful');
    const [hook] = await call('GET', `/projects/${projectId}/hooks`);
    await call('POST', `/projects/${projectId}/issues`, { title: 'slow to take' });
    await receiver.waitFor('graceful', 1);
    const stopping = Date.now();
    await stack.stopProcess('hooks-worker');
    // It waited for the receiver's answer (1.5 s) before it exited.
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(1000);
    const [logged] = await call('GET', `/projects/${projectId}/hooks/${hook.id}/events`);
    expect([logged.state, logged.attempts.length, logged.attempts[0].response_body]).toEqual([
      'delivered',
      1,
      'took a while',
    ]);
    await stack.restart('hooks-worker');
    // A later issue's delivery shows the restarted worker at work: a second copy of the first
    // delivery, queued before it, would have come first.
    await call('POST', `/projects/${projectId}/issues`, { title: 'after the restart' });
    await receiver.waitFor('graceful', 2, 30_000);
    expect(receiver.at('graceful').map((r) => r.body.object_attributes.title)).toEqual([
      'slow to take',
      'after the restart',
    ]);
  }, 90_000);

  it('two workers share a burst of 1,000 events, each delivered exactly once', async () => {
    await stack.startReplica('hooks-worker');
    const projectId = await hookedProject('burst');
    await openIssues(projectId, 1000);
    await receiver.waitFor('burst', 1000, 90_000);
    // A copy would be queued beside its original, so before a later event: its delivery ends the wait.
    await call('POST', `/projects/${projectId}/issues`, { title: 'after the burst' });
    await receiver.waitFor('burst', 1001, 30_000);
    expect(tally('burst')).toEqual({ received: 1001, distinct: 1001 });
    const workers = await sql<{ worker: string; n: number }[]>`
      select a.worker, count(*)::int as n from delivery_attempts a join deliveries d on d.id = a.delivery_id
      join hooks h on h.id = d.hook_id where h.project_id = ${projectId} group by a.worker`;
    expect(workers).toHaveLength(2);
    expect(workers.every((w) => w.n > 0)).toBe(true);
  }, 180_000);

  it('loses nothing when a worker is killed mid-delivery: the other takes its jobs over', async () => {
    const extra = await stack.startReplica('hooks-worker');
    receiver.respond('killed', () => ({ status: 200, delayMs: 300 }));
    const projectId = await hookedProject('killed');
    await openIssues(projectId, 200);
    await receiver.waitFor('killed', 20);
    extra.child.kill('SIGKILL');
    const deadline = Date.now() + 60_000;
    while (tally('killed').distinct < 200 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const { received, distinct } = tally('killed');
    expect(distinct).toBe(200);
    // A delivery cut off mid-request may be sent again (at least once); the webhook-id tells the copy.
    expect(received - distinct).toBeLessThanOrEqual(100);
  }, 90_000);

  it('pauses a hook that keeps failing for longer each time, keeps its delivery, and resumes by itself', async () => {
    // Sick for four attempts, well on the fifth.
    receiver.respond('sick', (_request, index) => (index < 4 ? { status: 503 } : { status: 200 }));
    const projectId = await hookedProject('sick');
    const [hook] = await call('GET', `/projects/${projectId}/hooks`);
    await call('POST', `/projects/${projectId}/issues`, { title: 'for a sick receiver' });
    await receiver.waitFor('sick', 3);
    // Three failures in a row: paused; the delivery waits instead of being tried or dropped. The
    // worker records the pause after the receiver's third answer, and only a success (the fifth
    // attempt, after the pause) lifts it: asking until it shows cannot miss it.
    await eventually(async () =>
      expect((await call('GET', `/projects/${projectId}/hooks/${hook.id}`)).paused_until).not.toBeNull(),
    );
    await receiver.waitFor('sick', 5, 15_000);
    const times = receiver.at('sick').map((r) => r.at);
    // 100–200 ms retries, then a 1.5 s pause, then a 3 s one.
    expect(times[3] - times[2]).toBeGreaterThanOrEqual(1400);
    expect(times[4] - times[3]).toBeGreaterThanOrEqual(2900);
    expect(new Set(receiver.at('sick').map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Recorded after the receiver's answer, as the pause was.
    await eventually(async () =>
      expect((await call('GET', `/projects/${projectId}/hooks/${hook.id}`)).paused_until).toBeNull(),
    );
    const [logged] = await call('GET', `/projects/${projectId}/hooks/${hook.id}/events`);
    expect([logged.state, logged.attempts.map((a: { response_status: number }) => a.response_status)]).toEqual([
      'delivered',
      [503, 503, 503, 503, 200],
    ]);
  }, 60_000);

  it('loses nothing and sends nothing twice when Redis stops while events are produced', async () => {
    // Slow answers keep deliveries queued and in flight when Redis goes away.
    receiver.respond('outage', () => ({ status: 200, body: 'ok', delayMs: 200 }));
    const projectId = await hookedProject('outage');
    const before = openIssues(projectId, 150, 8);
    await receiver.waitFor('outage', 1, 30_000);
    await stack.stopRedis();
    await before;
    // Produced while Redis is down: the events wait in the services' outboxes.
    await openIssues(projectId, 50, 8);
    // Not a wait for an event: the outage lasts a second more, so the relays fail and retry.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await stack.startRedis();
    await receiver.waitFor('outage', 200, 90_000);
    // A copy would be queued beside its original, so before a later event: its delivery ends the wait.
    await call('POST', `/projects/${projectId}/issues`, { title: 'after the outage' });
    await receiver.waitFor('outage', 201, 30_000);
    expect(tally('outage')).toEqual({ received: 201, distinct: 201 });
  }, 150_000);
});
