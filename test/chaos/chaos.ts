import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_TABLE } from '@hub/common';
import { readPidFile, startStack, type Stack } from '@hub/local';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

/**
 * Chaos under load: a stack of its own, a steady mixed load of reads and writes, and faults
 * injected one at a time (a process killed with SIGKILL, Postgres crashed and recovered, Redis
 * killed and started again, the git worker killed in the middle of a push). It counts what it
 * tried and what went wrong; `npm run chaos` prints the figures, the e2e test runs a bounded set.
 */

/** A process of the stack killed with SIGKILL, a server restarted, or the git worker killed mid-push. */
export type Fault =
  { kind: 'kill'; process: string } | { kind: 'postgres' } | { kind: 'redis' } | { kind: 'push-kill'; afterMs: number };

export interface ChaosOptions {
  faults: Fault[];
  /** Concurrent request loops. */
  workers: number;
  /** Load before the first fault and between faults. */
  calmMs: number;
  log: (line: string) => void;
}

export interface ChaosFigures {
  faultsInjected: number;
  requests: number;
  /** Requests that failed although nothing they need was down. */
  failedOutside: number;
  /** Requests that needed what was down and failed as they should: 502/503, a JSON v3 message, within a second. */
  failedAsExpected: number;
  /** Requests that needed what was down and failed otherwise (another status, no JSON message, no answer). */
  failedBadly: number;
  /** Requests that needed what was down and failed as they should, but took longer than a second. */
  failedSlowly: number;
  /** The facade and the gateway have nothing in front of them locally: while one is down, its connections are refused. */
  refusedWhileFacadeDown: number;
  eventsExpected: number;
  eventsLost: number;
  /** Deliveries of one event more than once (at-least-once delivery allows it; counted, not failed). */
  eventsDuplicated: number;
  pushKills: Array<{
    afterMs: number;
    pushExit: number;
    outcome: 'complete' | 'absent' | 'other';
    fsckClean: boolean;
    fsck: string[];
    retryOk: boolean;
  }>;
  recoveries: Array<{ fault: string; ms: number | null }>;
  /**
   * Processes that died without being killed (a crash the fault caused, as the launcher saw it:
   * "projects exited with code 1"). The launcher restarts them, but a service must ride out a
   * Postgres or Redis restart, not fall over.
   */
  crashed: string[];
  /** Latency of the requests that succeeded (ms), for a sense of how loaded the machine was. */
  okLatency: { p50: number; p95: number };
  /** The first few failures of each kind, for a look. */
  samples: string[];
}

interface Op {
  name: string;
  /** What it needs: processes of the stack, and 'postgres' for all that touch the database. */
  needs: string[];
  run: () => Promise<Answer>;
  /** GraphQL answers a failure with `errors` (and may keep status 200). */
  graphql?: boolean;
}

interface Answer {
  status: number;
  body: unknown;
  type: string | null;
}

interface Window {
  fault: string;
  /** What is down: a process name, 'postgres' or 'redis'. */
  down: string;
  from: number;
  to: number | null;
}

/** Processes callers connect to directly (locally there is no load balancer to answer 502 for them). */
const ENTRY_POINTS = ['rest-facade', 'gateway'];

/** What a project's routes need: its owner's user, the project, the caller's access, the database and the facade. */
const READS = ['identity', 'projects', 'membership', 'postgres', 'rest-facade'];

export async function runChaos(options: ChaosOptions): Promise<ChaosFigures> {
  const { log } = options;
  const dir = mkdtempSync(join(tmpdir(), 'hub-chaos-'));
  log(`data and logs in ${dir}`);
  // Reachable by the unprivileged Postgres user, so its data stays here and goes with the folder.
  chmodSync(dir, 0o755);
  const receiver = await startReceiver();
  const env = { ...process.env };
  for (const name of Object.keys(CONFIG_TABLE)) delete env[name];
  let stack: Stack | null = null;
  const figures: ChaosFigures = {
    faultsInjected: 0,
    requests: 0,
    failedOutside: 0,
    failedAsExpected: 0,
    failedBadly: 0,
    failedSlowly: 0,
    refusedWhileFacadeDown: 0,
    eventsExpected: 0,
    eventsLost: 0,
    eventsDuplicated: 0,
    pushKills: [],
    recoveries: [],
    crashed: [],
    okLatency: { p50: 0, p95: 0 },
    samples: [],
  };
  const scratch: string[] = [];
  let faultNow = 'start-up';
  // Outside the try: a failure mid-run must stop the request loops too, or they spin against a
  // stopped stack in the test runner's worker.
  let running = true;
  const sampled = new Map<string, number>();
  const sample = (kind: string, line: string) => {
    const n = sampled.get(kind) ?? 0;
    sampled.set(kind, n + 1);
    if (n < 5) figures.samples.push(`${kind}: ${line}`);
  };
  try {
    stack = await startStack({
      dataDir: dir,
      // Durable, as `npm start` runs: this counts what a crash loses.
      durable: true,
      // One token drives the whole load: the request limits would answer part of it 429 and count
      // as failures; they are not what this measures.
      env: { ...env, LOG_LEVEL: 'warn', HOOKS_ALLOW_LOCAL: 'true', RATE_LIMIT_PER_USER: '0', RATE_LIMIT_PER_IP: '0' },
      freePorts: true,
      logs: { kind: 'files', dir },
      log: (line) => {
        log(`launcher: ${line}`);
        // Deaths by SIGKILL are the faults themselves; any other death is a crash.
        const died = /^(\S+) exited with code (\d+)/.exec(line);
        if (died) figures.crashed.push(`${died[1]} (code ${died[2]}, during ${faultNow})`);
      },
      onGiveUp: (name) => sample('supervisor gave up', name),
    });
    const s = stack;
    const token = s.rootToken;
    const call = async (method: string, path: string, body?: unknown, base = s.restUrl): Promise<Answer> => {
      const response = await fetch(base + path, {
        method,
        headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // kept as text: a failure without JSON is what the check below looks for
      }
      return { status: response.status, body: parsed, type: response.headers.get('content-type') };
    };
    const must = async (method: string, path: string, body?: unknown) => {
      const answer = await call(method, path, body);
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as any;
    };

    // Seed: projects with a repository, an issue, a merge request and a hook that takes everything.
    log('seeding');
    const users = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const name = `chaos${i}${randomBytes(3).toString('hex')}`;
        return must('POST', '/users', {
          email: `${name}@example.com`,
          password: `password-${name}`,
          username: name,
          name,
        }) as Promise<{ id: number }>;
      }),
    );
    const projects: Array<{ id: number; path: string; issue: number; mr: number; wc: string; head: string }> = [];
    for (let i = 0; i < 3; i++) {
      const project = await must('POST', '/projects', { name: `chaos-${i}-${randomBytes(3).toString('hex')}` });
      await must('POST', `/projects/${project.id}/hooks`, {
        url: receiver.url(`p${project.id}`),
        push_events: true,
        issues_events: true,
        note_events: true,
        merge_requests_events: true,
      });
      const wc = mkdtempSync(join(tmpdir(), 'hub-chaos-wc-'));
      scratch.push(wc);
      await git(wc, 'init', '-q', '-b', 'master');
      writeFileSync(join(wc, 'README.md'), 'chaos\n');
      await git(wc, 'add', '-A');
      await git(wc, 'commit', '-q', '-m', 'first');
      const remote = remoteUrl(s, project.path_with_namespace);
      await gitOk(wc, 'push', '-q', remote, 'master');
      await git(wc, 'checkout', '-q', '-b', 'feature');
      writeFileSync(join(wc, 'feature.txt'), 'feature\n');
      await git(wc, 'add', '-A');
      await git(wc, 'commit', '-q', '-m', 'feature');
      await gitOk(wc, 'push', '-q', remote, 'feature');
      await git(wc, 'checkout', '-q', 'master');
      const issue = await must('POST', `/projects/${project.id}/issues`, { title: 'seed' });
      const mr = await must('POST', `/projects/${project.id}/merge_requests`, {
        source_branch: 'feature',
        target_branch: 'master',
        title: 'seed',
      });
      projects.push({
        id: project.id,
        path: project.path_with_namespace,
        issue: issue.id,
        mr: mr.id,
        wc,
        head: (await git(wc, 'rev-parse', 'HEAD')).stdout.trim(),
      });
    }

    // What the writes must lead to: a hook delivery per issue, note and push; a feed entry per member added.
    const expectedHooks: Array<{ path: string; kind: string; key: string | number; during: string }> = [];
    const expectedFeed: Array<{ project: number; action: string; author: number; during: string }> = [];
    const createdProjects: number[] = [];
    let counter = 0;
    let memberSlots = 0;
    const pick = <T>(list: T[]) => list[counter++ % list.length];
    const root = (await must('GET', '/user')) as { id: number };
    const ops: Op[] = [
      { name: 'GET /user', needs: ['identity', 'postgres', 'rest-facade'], run: () => call('GET', '/user') },
      { name: 'GET /projects', needs: READS, run: () => call('GET', '/projects') },
      { name: 'GET /projects/:id', needs: READS, run: () => call('GET', `/projects/${pick(projects).id}`) },
      {
        name: 'GET /projects/:id/events',
        needs: READS,
        run: () => call('GET', `/projects/${pick(projects).id}/events`),
      },
      {
        name: 'GET /projects/:id/repository/branches',
        needs: [...READS, 'repository', 'git-worker'],
        run: () => call('GET', `/projects/${pick(projects).id}/repository/branches`),
      },
      {
        name: 'GET /projects/:id/repository/tree',
        needs: [...READS, 'repository', 'git-worker'],
        run: () => call('GET', `/projects/${pick(projects).id}/repository/tree`),
      },
      {
        name: 'GET /projects/:id/merge_requests',
        needs: [...READS, 'mergerequests', 'notes'],
        run: () => call('GET', `/projects/${pick(projects).id}/merge_requests`),
      },
      {
        name: 'GET /projects/:id/issues',
        needs: [...READS, 'notes'],
        run: () => call('GET', `/projects/${pick(projects).id}/issues`),
      },
      {
        name: 'GET /projects/:id/hooks',
        needs: [...READS, 'hooks'],
        run: () => call('GET', `/projects/${pick(projects).id}/hooks`),
      },
      {
        name: 'GraphQL viewer (gateway)',
        needs: ['gateway', 'identity', 'postgres'],
        graphql: true,
        run: () =>
          call('POST', '/graphql', { query: '{ viewer { username } }' }, `http://127.0.0.1:${s.env.GATEWAY_PORT}`),
      },
      {
        name: 'POST /projects/:id/issues',
        needs: [...READS, 'notes'],
        run: async () => {
          const p = pick(projects);
          const answer = await call('POST', `/projects/${p.id}/issues`, { title: `load ${counter}` });
          if (answer.status === 201)
            expectedHooks.push({
              path: `p${p.id}`,
              kind: 'issue',
              key: (answer.body as { id: number }).id,
              during: during(),
            });
          return answer;
        },
      },
      {
        name: 'POST /projects/:id/issues/:issue_id/notes',
        needs: [...READS, 'notes'],
        run: async () => {
          const p = pick(projects);
          const answer = await call('POST', `/projects/${p.id}/issues/${p.issue}/notes`, { body: `note ${counter}` });
          if (answer.status === 201)
            expectedHooks.push({
              path: `p${p.id}`,
              kind: 'note',
              key: (answer.body as { id: number }).id,
              during: during(),
            });
          return answer;
        },
      },
      {
        name: 'POST /projects/:id/merge_requests/:mr/notes',
        needs: [...READS, 'notes', 'mergerequests'],
        run: async () => {
          const p = pick(projects);
          const answer = await call('POST', `/projects/${p.id}/merge_requests/${p.mr}/notes`, {
            body: `mr note ${counter}`,
          });
          if (answer.status === 201)
            expectedHooks.push({
              path: `p${p.id}`,
              kind: 'note',
              key: (answer.body as { id: number }).id,
              during: during(),
            });
          return answer;
        },
      },
      {
        name: 'POST /projects',
        // Not membership: the creator's access follows from the event once it is back.
        needs: ['identity', 'projects', 'postgres', 'rest-facade'],
        run: async () => {
          const answer = await call('POST', '/projects', { name: `chaos-load-${randomBytes(4).toString('hex')}` });
          if (answer.status === 201) {
            const { id } = answer.body as { id: number };
            createdProjects.push(id);
            // Membership makes the creator a Master on the project's creation event; projects hears of it back.
            expectedFeed.push({ project: id, action: 'joined', author: root.id, during: during() });
          }
          return answer;
        },
      },
      {
        name: 'POST /projects/:id/members',
        needs: [...READS, 'identity'],
        run: async () => {
          // A project made during the load and a user not in it yet (each slot is taken once).
          const project = createdProjects[Math.floor(memberSlots / users.length)] ?? null;
          if (project === null) return call('GET', `/projects/${pick(projects).id}/members`);
          const user = users[memberSlots++ % users.length];
          const answer = await call('POST', `/projects/${project}/members`, { user_id: user.id, access_level: 30 });
          if (answer.status === 201)
            expectedFeed.push({ project, action: 'joined', author: user.id, during: during() });
          return answer;
        },
      },
    ];

    // The load: request loops recording every answer; a pusher alongside.
    const windows: Window[] = [];
    const okDurations: number[] = [];
    /** The fault in progress (or the last one), to say when a lost event was written. */
    const during = () => {
      const last = windows[windows.length - 1];
      return !last ? 'before any fault' : last.to === null ? `during ${last.fault}` : `after ${last.fault}`;
    };
    const record = (
      op: { name: string; needs: string[]; graphql?: boolean; git?: boolean },
      started: number,
      ended: number,
      answer: Answer | Error,
    ) => {
      figures.requests++;
      const graphqlErrors =
        !(answer instanceof Error) && op.graphql && Array.isArray((answer.body as { errors?: unknown })?.errors);
      const failed = answer instanceof Error || answer.status >= 400 || graphqlErrors;
      if (!failed) {
        okDurations.push(ended - started);
        return;
      }
      const what =
        answer instanceof Error
          ? `${answer.name}: ${answer.message}`
          : `${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`;
      const window = windows.find((w) => started <= (w.to ?? Infinity) && ended >= w.from);
      if (!window || !op.needs.includes(window.down)) {
        figures.failedOutside++;
        sample('failed outside', `${op.name} during ${window?.fault ?? 'calm'} -> ${what}`);
        return;
      }
      if (ENTRY_POINTS.includes(window.down) && answer instanceof Error) {
        figures.refusedWhileFacadeDown++;
        return;
      }
      if (op.git) {
        // git shows only the status: a push refused with 502/503 is the expected failure.
        if (/returned error: 50[23]/.test(what)) figures.failedAsExpected++;
        else {
          figures.failedBadly++;
          sample('failed badly', `${op.name} during ${window.fault} (${ended - started} ms) -> ${what}`);
        }
        return;
      }
      const json = !(answer instanceof Error) && /^application\/(graphql-response\+)?json/.test(answer.type ?? '');
      const message = graphqlErrors
        ? typeof (answer.body as { errors: Array<{ message?: unknown }> }).errors[0]?.message === 'string'
        : !(answer instanceof Error) &&
          (answer.status === 502 || answer.status === 503) &&
          typeof (answer.body as { message?: unknown })?.message === 'string';
      if (json && message && ended - started <= 1000) figures.failedAsExpected++;
      else if (json && message) {
        figures.failedSlowly++;
        sample('failed slowly', `${op.name} during ${window.fault} (${ended - started} ms) -> ${what}`);
      } else {
        figures.failedBadly++;
        sample('failed badly', `${op.name} during ${window.fault} (${ended - started} ms) -> ${what}`);
      }
    };
    const loop = async () => {
      while (running) {
        const op = ops[Math.floor(Math.random() * ops.length)];
        const started = Date.now();
        let answer: Answer | Error;
        try {
          answer = await op.run();
        } catch (error) {
          answer = error as Error;
        }
        record(op, started, Date.now(), answer);
      }
    };
    // The facade asks the repository subgraph about the repository before it hands the push on.
    const pushNeeds = ['rest-facade', 'git-worker', 'repository', 'identity', 'projects', 'membership', 'postgres'];
    const pusher = async () => {
      const p = projects[0];
      let n = 0;
      while (running) {
        writeFileSync(join(p.wc, 'load.txt'), `push ${n++}\n`);
        await git(p.wc, 'commit', '-q', '-am', `load ${n}`);
        const sha = (await git(p.wc, 'rev-parse', 'HEAD')).stdout.trim();
        const started = Date.now();
        const push = await git(p.wc, 'push', '-q', remoteUrl(s, p.path), 'master');
        // A push that failed is carried by the next one (its commit stays on the local master).
        if (push.code === 0) expectedHooks.push({ path: `p${p.id}`, kind: 'push', key: sha, during: during() });
        record(
          { name: 'git push', needs: pushNeeds, git: true },
          started,
          Date.now(),
          push.code === 0 ? { status: 200, body: null, type: null } : new Error(push.stderr.trim().split('\n').pop()),
        );
        await sleep(500);
      }
    };
    log(`load: ${options.workers} request loops and a pusher`);
    const loops = [...Array.from({ length: options.workers }, loop), pusher()];

    /**
     * Waits until a killed process is back (a new pid, ready) and every read answers 2xx: the
     * time from the fault, or null after 90 s more.
     */
    const recovered = async (from: number, killed: { name: string; pid: number } | null) => {
      // From now: a push-kill fault has already spent a while pushing before this is called.
      const deadline = Date.now() + 90_000;
      while (killed && Date.now() < deadline) {
        const pid = pidOf(killed.name);
        const url = s.urls[killed.name];
        if (
          pid &&
          pid !== killed.pid &&
          (await fetch(`${url}/readyz`).then(
            (r) => r.status === 200,
            () => false,
          ))
        )
          break;
        await sleep(100);
      }
      while (Date.now() < deadline) {
        let all = true;
        for (const op of ops.filter((o) => o.name.startsWith('GET') || o.name.startsWith('GraphQL'))) {
          const answer = await op.run().catch(() => null);
          if (!answer || answer.status >= 400) {
            all = false;
            break;
          }
        }
        if (all) return Date.now() - from;
        await sleep(100);
      }
      return null;
    };
    const pidOf = (name: string) => s.processes.find((p) => p.name === name)?.child.pid;

    await sleep(options.calmMs);
    for (const fault of options.faults) {
      const label =
        fault.kind === 'kill'
          ? `SIGKILL ${fault.process}`
          : fault.kind === 'push-kill'
            ? `SIGKILL git-worker ${fault.afterMs} ms into a push`
            : `restart ${fault.kind}`;
      log(`fault: ${label}`);
      faultNow = label;
      const window: Window = {
        fault: label,
        down: fault.kind === 'kill' ? fault.process : fault.kind === 'push-kill' ? 'git-worker' : fault.kind,
        from: Date.now(),
        to: null,
      };
      windows.push(window);
      figures.faultsInjected++;
      let killed: { name: string; pid: number } | null = null;
      if (fault.kind === 'kill') {
        killed = { name: fault.process, pid: pidOf(fault.process)! };
        process.kill(killed.pid, 'SIGKILL');
      } else if (fault.kind === 'postgres') {
        await s.restartPostgres('immediate');
      } else if (fault.kind === 'redis') {
        const pid = readPidFile(join(dir, 'redis', 'redis.pid'));
        if (pid === null) throw new Error('chaos: the Redis pid file names no process');
        process.kill(pid, 'SIGKILL');
        await sleep(500);
        await s.startRedis();
      } else {
        killed = { name: 'git-worker', pid: pidOf('git-worker')! };
        figures.pushKills.push(await pushKill(s, dir, fault.afterMs, () => process.kill(killed!.pid, 'SIGKILL'), log));
      }
      const ms = await recovered(window.from, killed);
      window.to = Date.now();
      figures.recoveries.push({ fault: label, ms });
      log(`  recovered ${ms === null ? 'NOT within 90 s' : `in ${ms} ms`}`);
      await sleep(options.calmMs);
    }
    running = false;
    await Promise.all(loops);
    okDurations.sort((a, b) => a - b);
    const at = (q: number) => okDurations[Math.min(okDurations.length - 1, Math.floor(q * okDurations.length))] ?? 0;
    figures.okLatency = { p50: at(0.5), p95: at(0.95) };

    // Every event a successful write promised must arrive, however long the faults held it up.
    log(`waiting for ${expectedHooks.length} hook deliveries and ${expectedFeed.length} feed entries`);
    figures.eventsExpected = expectedHooks.length + expectedFeed.length;
    const missing = await waitForEvents(
      receiver,
      expectedHooks,
      expectedFeed,
      (project) => must('GET', `/projects/${project}/events?per_page=100`),
      120_000,
    );
    figures.eventsLost = missing.lost.length;
    figures.eventsDuplicated = missing.duplicated;
    for (const line of missing.lost.slice(0, 10)) sample('event lost', line);
    return figures;
  } finally {
    running = false;
    await stack?.stop();
    await receiver.close();
    for (const wc of scratch) rmSync(wc, { recursive: true, force: true });
    if (!process.env.KEEP_CHAOS_DATA) rmSync(dir, { recursive: true, force: true });
  }
}

/** Pushes a commit of a few thousand files and kills the git worker `afterMs` into it; checks what is left. */
async function pushKill(stack: Stack, dir: string, afterMs: number, kill: () => void, log: (line: string) => void) {
  const token = stack.rootToken;
  const created = await fetch(`${stack.restUrl}/projects`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `chaos-push-${randomBytes(3).toString('hex')}` }),
  });
  const project = (await created.json()) as { id: number; path_with_namespace: string };
  const wc = mkdtempSync(join(tmpdir(), 'hub-chaos-push-'));
  try {
    await git(wc, 'init', '-q', '-b', 'master');
    for (let i = 0; i < 40; i++) {
      mkdirSync(join(wc, `d${i}`), { recursive: true });
      for (let j = 0; j < 50; j++) writeFileSync(join(wc, `d${i}`, `f${j}.bin`), randomBytes(2048));
    }
    await git(wc, 'add', '-A');
    await git(wc, 'commit', '-q', '-m', 'big');
    const sha = (await git(wc, 'rev-parse', 'HEAD')).stdout.trim();
    const remote = remoteUrl(stack, project.path_with_namespace);
    const push = git(wc, 'push', '-q', remote, 'master');
    await sleep(afterMs);
    kill();
    const result = await push;
    // Wait for the worker to be back, then look at the bare repository.
    const deadline = Date.now() + 60_000;
    let ls = await git(wc, 'ls-remote', remote, 'refs/heads/master');
    while (ls.code !== 0 && Date.now() < deadline) {
      await sleep(200);
      ls = await git(wc, 'ls-remote', remote, 'refs/heads/master');
    }
    const tip = ls.stdout.trim().split(/\s+/)[0] ?? '';
    const outcome = tip === sha ? 'complete' : tip === '' && ls.code === 0 ? 'absent' : 'other';
    const repo = join(stack.env.REPOS_ROOT ?? join(dir, 'repositories'), `${project.id}.git`);
    const fsck = await fsckProblems(repo);
    const retry = await git(wc, 'push', '-q', remote, 'master');
    const after = await fsckProblems(repo);
    const problems = [...fsck, ...after];
    log(
      `  push exit ${result.code}; on the server: ${outcome}; git fsck ${problems.length ? `NOT clean: ${problems.join('; ').slice(0, 300)}` : 'clean'}; a second push ${retry.code === 0 ? 'went through' : `failed: ${retry.stderr.trim()}`}`,
    );
    return {
      afterMs,
      pushExit: result.code,
      outcome,
      fsckClean: problems.length === 0,
      fsck: problems,
      retryOk: retry.code === 0,
    } as const;
  } finally {
    rmSync(wc, { recursive: true, force: true });
  }
}

async function waitForEvents(
  receiver: Receiver,
  hooks: Array<{ path: string; kind: string; key: string | number; during: string }>,
  feed: Array<{ project: number; action: string; author: number; during: string }>,
  events: (project: number) => Promise<Array<{ action_name: string; author_id: number }>>,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  const keyOf = (body: any): string | number | undefined =>
    body?.object_kind === 'push' ? body.after : body?.object_attributes?.id;
  for (;;) {
    const delivered = new Map<string, number>();
    for (const r of receiver.all()) {
      const key = `${r.path.slice(1)} ${r.body?.object_kind} ${keyOf(r.body)}`;
      delivered.set(key, (delivered.get(key) ?? 0) + 1);
    }
    const lost = hooks
      .filter((h) => !delivered.has(`${h.path} ${h.kind} ${h.key}`))
      .map((h) => `${h.kind} ${h.key} to ${h.path}, written ${h.during}`);
    for (const project of [...new Set(feed.map((f) => f.project))]) {
      const entries = await events(project).catch(() => []);
      for (const f of feed.filter((e) => e.project === project)) {
        if (!entries.some((e) => e.action_name === f.action && e.author_id === f.author))
          lost.push(`feed of project ${project}: ${f.action} by user ${f.author}, written ${f.during}`);
      }
    }
    const duplicated = [...delivered.values()].filter((n) => n > 1).length;
    if (lost.length === 0 || Date.now() > deadline) return { lost, duplicated };
    await sleep(1000);
  }
}

/**
 * What `git fsck --full` finds wrong. Its notices about an empty repository (HEAD on an unborn
 * branch, no references) and dangling objects (a push cut short leaves unreferenced objects,
 * which gc removes) are not damage.
 */
async function fsckProblems(repo: string): Promise<string[]> {
  const fsck = await git(repo, 'fsck', '--full', '--no-progress', '--no-dangling');
  const lines = `${fsck.stdout}\n${fsck.stderr}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('notice:'));
  return fsck.code === 0 ? lines : [`exit ${fsck.code}`, ...lines];
}

function remoteUrl(stack: Stack, path: string) {
  const url = new URL(`${stack.restUrl.replace(/\/api\/v3$/, '')}/${path}.git`);
  url.username = 'root';
  url.password = stack.rootToken;
  return url.toString();
}

function git(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'user.name=Chaos', '-c', 'user.email=chaos@example.com', ...args],
      { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, encoding: 'utf8', maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function gitOk(cwd: string, ...args: string[]) {
  const result = await git(cwd, ...args);
  if (result.code !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr}`);
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The figures as `npm run chaos` prints them. */
export function formatFigures(f: ChaosFigures): string {
  const lines = [
    `faults injected                               ${f.faultsInjected}`,
    `requests made                                 ${f.requests}`,
    `requests failed outside the killed routes     ${f.failedOutside}`,
    `killed routes: 502/503 JSON within 1 s        ${f.failedAsExpected}`,
    `killed routes: the same, slower than 1 s      ${f.failedSlowly}`,
    `killed routes: failed otherwise               ${f.failedBadly}`,
    `refused while the facade or gateway was down  ${f.refusedWhileFacadeDown}`,
    `latency of the requests that succeeded        p50 ${f.okLatency.p50} ms, p95 ${f.okLatency.p95} ms`,
    `events expected (hook deliveries, feed)       ${f.eventsExpected}`,
    `events lost                                   ${f.eventsLost}`,
    `events delivered more than once               ${f.eventsDuplicated}`,
    `processes that died on their own              ${f.crashed.length}${f.crashed.length ? `: ${f.crashed.join(', ')}` : ''}`,
    ...f.pushKills.map(
      (p) =>
        `git worker killed ${p.afterMs} ms into a push: push exit ${p.pushExit}, ${p.outcome} on the server, fsck ${p.fsckClean ? 'clean' : 'NOT clean'}, retry ${p.retryOk ? 'ok' : 'failed'}`,
    ),
    ...f.recoveries.map(
      (r) => `recovered from ${r.fault.padEnd(40)} ${r.ms === null ? 'NOT within 90 s' : `${r.ms} ms`}`,
    ),
    ...(f.samples.length ? ['', 'samples:', ...f.samples.map((s) => `  ${s}`)] : []),
  ];
  return lines.join('\n');
}
