import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { benchApi } from '../seed/api';
import { fmtBytes, fmtMs, verdict } from '../report';
import { percentile } from '../stats';
import type { BenchContext } from './context';
import {
  clock,
  type Collected,
  type SubscribersRequest,
  type SubscribersSetup,
  type SubscribersStatus,
} from './subscribers';

const MIB = 1024 * 1024;
/** The issue's load: 1,000 open subscriptions on one gateway process, 100 events a second. */
const USERS = 10;
/** Within the gateway's default SUBSCRIPTIONS_PER_USER (100): the run sets no limit of its own. */
const SUBSCRIPTIONS_PER_USER = 100;
const PROJECTS = 5;
const EVENTS_PER_SECOND = 100;
/**
 * Issues retitled in turn per project: each is retitled again only every
 * PROJECTS × ISSUES_PER_PROJECT / EVENTS_PER_SECOND = 1 s, so one issue's updates commit in the
 * order they were sent, and its k-th message is its k-th update.
 */
const ISSUES_PER_PROJECT = 20;
/** PUTs the producer has in flight at most; past it, events go out late and the rate shows it. */
const MAX_IN_FLIGHT = 64;
/**
 * Seconds of updates at the measured rate, to the warm-up issues, before the measured ones: from
 * idle, the first seconds at 100 a second ran with cold code and pools (reads of a group's
 * messages p50 64 ms in the first 5 s, 8 ms from the 15th on, the gateway's event loop 92 % busy
 * against 75 %), and those seconds alone made the p99.
 */
const WARM_SECONDS = 10;
const ISSUE_UPDATES = `subscription ($projectId: Int) {
  issueUpdated(projectId: $projectId) { cursor action issue { databaseId title } }
}`;

/** An issue update the producer made: when its PUT was sent and when it returned (ms on the shared clock). */
export interface SentEvent {
  seq: number;
  issueId: number;
  sentAt: number;
  returnedAt: number;
}

export interface Deliveries {
  expected: number;
  received: number;
  /** Messages an event should have made that never came, and messages no event accounts for. */
  missing: number;
  extra: number;
  /** Per delivered message: ms from the PUT's return, and from its sending. */
  fromReturn: number[];
  fromSend: number[];
  /** Per delivered message: ms from its event's entry into the stream (the relay's XADD) to the client. */
  fromStream: number[];
  /**
   * Per delivered event: ms from its PUT's return to its entry into the stream (negative when the
   * relay wrote it before the facade's answer was read). With fromStream, where the time goes.
   */
  streamFromReturn: number[];
  /** Messages that came before their PUT's answer did (counted as 0 ms from the return). */
  beforeReturn: number;
  /** Messages showing a title older than their event's (the read ran before the update it announces). */
  titlesBehind: number;
}

/** The update a title was set by; -1 for a seed or warm-up title, older than every measured update. */
const seqOfTitle = (title: string) => Number(/^bench (\d+)$/.exec(title)?.[1] ?? -1);

/**
 * Pairs each subscription's messages with the events they announce: a subscription receives its
 * project's events in stream order, so its k-th message about an issue is that issue's k-th update.
 * `events` are the updates that succeeded, in the order they were sent.
 */
export function pairDeliveries(
  events: SentEvent[],
  projectOfIssue: Map<number, number>,
  subscriptionProjects: number[],
  collected: Collected,
): Deliveries {
  const updates = new Map<number, SentEvent[]>();
  for (const event of events) updates.set(event.issueId, [...(updates.get(event.issueId) ?? []), event]);
  const eventsOfProject = new Map<number, number>();
  for (const event of events) {
    const project = projectOfIssue.get(event.issueId)!;
    eventsOfProject.set(project, (eventsOfProject.get(project) ?? 0) + 1);
  }
  const streamed = new Set<SentEvent>();
  const result: Deliveries = {
    expected: 0,
    received: 0,
    missing: 0,
    extra: 0,
    fromReturn: [],
    fromSend: [],
    fromStream: [],
    streamFromReturn: [],
    beforeReturn: 0,
    titlesBehind: 0,
  };
  subscriptionProjects.forEach((project, s) => {
    const expected = eventsOfProject.get(project) ?? 0;
    const arrivals = collected.arrivals[s];
    result.expected += expected;
    result.received += arrivals.length;
    const seen = new Map<number, number>();
    let paired = 0;
    arrivals.forEach((at, m) => {
      const issueId = collected.issueIds[s][m];
      const k = seen.get(issueId) ?? 0;
      seen.set(issueId, k + 1);
      const event = projectOfIssue.get(issueId) === project ? updates.get(issueId)?.[k] : undefined;
      if (!event) {
        result.extra++;
        return;
      }
      paired++;
      if (at < event.returnedAt) result.beforeReturn++;
      result.fromReturn.push(Math.max(0, at - event.returnedAt));
      result.fromSend.push(at - event.sentAt);
      const streamedAt = collected.streamedAt[s][m];
      result.fromStream.push(at - streamedAt);
      if (!streamed.has(event)) {
        streamed.add(event);
        result.streamFromReturn.push(streamedAt - event.returnedAt);
      }
      if (seqOfTitle(collected.titles[s][m]) < event.seq) result.titlesBehind++;
    });
    result.missing += expected - paired;
  });
  return result;
}

/** The subscribers' thread, asked and answered by request id. */
function startSubscribers(setup: SubscribersSetup) {
  const worker = new Worker(join(__dirname, 'subscribers.js'), { workerData: { subscribers: setup } });
  const pending = new Map<number, (value: unknown) => void>();
  let failure: Error | null = null;
  worker.on('message', ({ id, value }: { id: number; value: unknown }) => {
    pending.get(id)?.(value);
    pending.delete(id);
  });
  worker.on('error', (error) => (failure = error));
  let next = 0;
  const ask = <T>(type: SubscribersRequest['type']) => {
    if (failure) return Promise.reject(failure);
    const id = next++;
    return new Promise<T>((resolve) => {
      pending.set(id, resolve as (value: unknown) => void);
      worker.postMessage({ id, type });
    });
  };
  return {
    open: () => ask<null>('open'),
    status: () => ask<SubscribersStatus>('status'),
    clear: () => ask<null>('clear'),
    collect: () => ask<Collected>('collect'),
    close: async () => {
      await ask<null>('close');
      await worker.terminate();
    },
    terminate: () => worker.terminate(),
  };
}

const statusText = (s: SubscribersStatus) =>
  `${s.live} live, ${s.received} received, ${s.errorCount} errors ${JSON.stringify(s.errors)}, ${s.closeCount} closed ${JSON.stringify(s.closes)}`;

/**
 * GraphQL subscriptions (issue 33): 1,000 `issueUpdated(projectId:)` subscriptions on the stack's
 * one gateway process, 100 from each of 10 members of 5 private projects, one WebSocket each (as
 * pages that each hold their own; the gateway's harder case for memory, and each message costs it
 * one frame either way). Issues are retitled through the REST facade at 100 a second, spread over
 * the projects, so each update fans out to 200 subscriptions; every subscription must receive
 * every update of its project. The same load runs for WARM_SECONDS on warm-up issues first, and only
 * then are updates measured. Measures event → client latency per message (from the PUT's
 * return, and from its sending) and the gateway's RSS during the run and after the sockets close.
 */
export async function benchSubscriptions(ctx: BenchContext): Promise<void> {
  const { stack, report } = ctx;
  const seconds = ctx.runner.options.quick ? 10 : 30;
  const root = benchApi(stack.restUrl, stack.rootToken, 'root');
  const gateway = stack.processes.find((p) => p.name === 'gateway');
  if (!gateway?.child.pid) throw new Error('the stack has no gateway process');

  ctx.log(`seeding ${PROJECTS} projects with ${ISSUES_PER_PROJECT} issues each, and ${USERS} members`);
  const users = [];
  for (let u = 0; u < USERS; u++) users.push(await ctx.newUser(`bench-live-${u}`));
  const projectIds: number[] = [];
  const issues: Array<{ id: number; projectId: number }> = [];
  const warmIssues: Array<{ id: number; projectId: number }> = [];
  for (let p = 0; p < PROJECTS; p++) {
    const project = await root.post<{ id: number }>('/projects', { name: `bench-live-${p}`, visibility_level: 0 });
    projectIds.push(project.id);
    for (const user of users)
      await root.post(`/projects/${project.id}/members`, { user_id: user.userId, access_level: 30 });
    for (let i = 0; i <= ISSUES_PER_PROJECT; i++) {
      const issue = await root.post<{ id: number }>(`/projects/${project.id}/issues`, { title: `bench seed ${i}` });
      // The first one only warms up: its updates are not measured.
      (i === 0 ? warmIssues : issues).push({ id: issue.id, projectId: project.id });
    }
  }
  const projectOfIssue = new Map(issues.map((issue) => [issue.id, issue.projectId]));

  const subscriptions: SubscribersSetup['subscriptions'] = [];
  users.forEach((user, u) => {
    for (let i = 0; i < SUBSCRIPTIONS_PER_USER; i++)
      subscriptions.push({ token: user.token, projectId: projectIds[i % PROJECTS], socket: `${u}:${i}` });
  });
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: MAX_IN_FLIGHT });
  const retitle = async (issue: { id: number; projectId: number }, title: string) => {
    const response = await request(`${stack.restUrl}/projects/${issue.projectId}/issues/${issue.id}`, {
      method: 'PUT',
      headers: { 'PRIVATE-TOKEN': stack.rootToken, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
      dispatcher: agent,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`PUT issue ${issue.id}: ${response.statusCode} ${text}`);
  };

  /**
   * Retitles `count` issues at EVENTS_PER_SECOND (`pick` chooses each), at most MAX_IN_FLIGHT at
   * once; the updates that succeeded, in the order sent, the failures, and how long it took.
   */
  const produce = async (count: number, pick: (seq: number) => { id: number; projectId: number }, title: string) => {
    const sent: SentEvent[] = [];
    const failures: string[] = [];
    const inFlight = new Set<Promise<void>>();
    const start = clock();
    for (let seq = 0; seq < count; seq++) {
      const due = start + (seq * 1000) / EVENTS_PER_SECOND;
      const wait = due - clock();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      const issue = pick(seq);
      const event: SentEvent = { seq, issueId: issue.id, sentAt: clock(), returnedAt: NaN };
      const put = retitle(issue, `${title} ${seq}`).then(
        () => {
          event.returnedAt = clock();
          sent.push(event);
        },
        (error: Error) => {
          failures.push(error.message.slice(0, 300));
        },
      );
      inFlight.add(put);
      void put.finally(() => inFlight.delete(put));
    }
    await Promise.all(inFlight);
    sent.sort((a, b) => a.seq - b.seq);
    return { sent, failures, seconds: (clock() - start) / 1000, start };
  };

  const before = ctx.processes().get('gateway');
  const subscribers = startSubscribers({
    url: stack.graphqlUrl.replace(/^http/, 'ws'),
    query: ISSUE_UPDATES,
    subscriptions,
    warmIssueIds: warmIssues.map((issue) => issue.id),
  });
  const label = `subscriptions: ${subscriptions.length} open, ${EVENTS_PER_SECOND} events/s`;
  try {
    const run = await ctx.runner.timed(label, async () => {
      ctx.log(`opening ${subscriptions.length} subscriptions, one socket each`);
      const opened = clock();
      await subscribers.open();
      // graphql-ws does not say when a subscription runs on the server: retitle a warm-up issue of
      // every project until each subscription has had a message.
      const deadline = Date.now() + 120_000;
      for (let round = 0; ; round++) {
        const status = await subscribers.status();
        if (status.errorCount || status.closeCount) throw new Error(`opening: ${statusText(status)}`);
        if (status.live === subscriptions.length) break;
        if (Date.now() > deadline) throw new Error(`not every subscription came up: ${statusText(status)}`);
        await Promise.all(warmIssues.map((issue) => retitle(issue, `warm ${round}`)));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const openSeconds = (clock() - opened) / 1000;
      const warmSeconds = ctx.runner.options.quick ? 3 : WARM_SECONDS;
      ctx.log(
        `all live after ${openSeconds.toFixed(1)} s; warming up at ${EVENTS_PER_SECOND} updates/s for ${warmSeconds} s`,
      );
      const warming = await produce(warmSeconds * EVENTS_PER_SECOND, (seq) => warmIssues[seq % PROJECTS]!, 'warm load');
      if (warming.failures.length) throw new Error(`warming up: ${JSON.stringify(warming.failures.slice(0, 3))}`);
      ctx.log(`${EVENTS_PER_SECOND} updates/s for ${seconds} s`);
      // Let the warm-up's messages drain before measuring (any that come later are set aside).
      for (let last = -1; ;) {
        const { received } = await subscribers.status();
        if (received === last) break;
        last = received;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await subscribers.clear();
      // What the open subscriptions hold before any backlog: the peak below includes the backlog.
      const open = ctx.processes().get('gateway');

      // Spread over the projects first, then over each project's issues.
      const {
        sent,
        failures,
        seconds: produceSeconds,
        start,
      } = await produce(
        seconds * EVENTS_PER_SECOND,
        (seq) => issues[(seq % PROJECTS) * ISSUES_PER_PROJECT + (Math.floor(seq / PROJECTS) % ISSUES_PER_PROJECT)]!,
        'bench',
      );

      // Every expected message, or no progress for 10 s (then the shortfall is the finding).
      const subscribersOf = new Map<number, number>();
      for (const s of subscriptions) subscribersOf.set(s.projectId, (subscribersOf.get(s.projectId) ?? 0) + 1);
      const expected = sent.reduce((sum, event) => sum + subscribersOf.get(projectOfIssue.get(event.issueId)!)!, 0);
      let status = await subscribers.status();
      for (let last = -1, quietSince = Date.now(); status.received < expected;) {
        if (status.received !== last) [last, quietSince] = [status.received, Date.now()];
        else if (Date.now() - quietSince > 10_000) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await subscribers.status();
      }
      const drainedSeconds = (clock() - start) / 1000;
      const drained = ctx.processes().get('gateway');
      return { sent, failures, produceSeconds, drainedSeconds, openSeconds, status, open, drained };
    });
    const { sent, failures, produceSeconds, drainedSeconds, openSeconds, status, open, drained } = run.value;
    const collected = await subscribers.collect();
    const deliveries = pairDeliveries(
      sent,
      projectOfIssue,
      subscriptions.map((s) => s.projectId),
      collected,
    );
    await subscribers.close();
    // What the gateway keeps once every socket has closed: after its collector has had a moment.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const after = ctx.processes().get('gateway');
    const during = report.processes[label]?.gateway;
    const growth = during ? during.peakTreeRss - during.startTreeRss : NaN;
    // The gateway's CPU (user and system) from the clear until the messages were in, per message:
    // on a machine shared with other work, steadier than the latencies.
    const gatewayCpuSeconds = open && drained ? drained.cpu - open.cpu : NaN;
    const cpuPerMessageUs = (gatewayCpuSeconds * 1e6) / deliveries.received;

    const figures = {
      subscriptions: subscriptions.length,
      users: USERS,
      projects: PROJECTS,
      socketsPerSubscription: 1,
      eventsPlanned: seconds * EVENTS_PER_SECOND,
      eventsSent: sent.length,
      putFailures: failures.length,
      putFailureSamples: failures.slice(0, 5),
      eventsPerSecond: sent.length / produceSeconds,
      openSeconds,
      produceSeconds,
      drainedSeconds,
      /** Messages a second from the first update until the last message (or the wait gave up). */
      deliveredPerSecond: deliveries.received / drainedSeconds,
      expected: deliveries.expected,
      received: deliveries.received,
      missing: deliveries.missing,
      extra: deliveries.extra,
      beforeReturn: deliveries.beforeReturn,
      titlesBehind: deliveries.titlesBehind,
      fromReturn: {
        p50: percentile(deliveries.fromReturn, 50),
        p99: percentile(deliveries.fromReturn, 99),
        max: percentile(deliveries.fromReturn, 100),
      },
      fromSend: {
        p50: percentile(deliveries.fromSend, 50),
        p99: percentile(deliveries.fromSend, 99),
        max: percentile(deliveries.fromSend, 100),
      },
      fromStream: {
        p50: percentile(deliveries.fromStream, 50),
        p99: percentile(deliveries.fromStream, 99),
        max: percentile(deliveries.fromStream, 100),
      },
      streamFromReturn: {
        p50: percentile(deliveries.streamFromReturn, 50),
        p99: percentile(deliveries.streamFromReturn, 99),
      },
      /** The subscribers' thread's share of time working, from the clear until the messages were in. */
      subscribersBusy: status.busy,
      gatewayCpuSeconds,
      gatewayCpuPerMessageUs: cpuPerMessageUs,
      putReturn: {
        p50: percentile(
          sent.map((e) => e.returnedAt - e.sentAt),
          50,
        ),
        p99: percentile(
          sent.map((e) => e.returnedAt - e.sentAt),
          99,
        ),
      },
      lateWarmUpMessages: status.lateWarmUp,
      subscriberErrors: status.errorCount,
      subscriberErrorSamples: status.errors,
      socketsClosed: status.closeCount,
      socketCloseSamples: status.closes,
      gatewayRss: {
        before: before?.rss ?? NaN,
        open: open?.rss ?? NaN,
        peak: during?.peakRss ?? NaN,
        growth,
        afterClose: after?.rss ?? NaN,
      },
    };
    report.record('subscriptions', figures);
    const shortfall = deliveries.missing > 0 || deliveries.extra > 0 || failures.length > 0 || status.errorCount > 0;
    const latency = figures.fromReturn;
    report.row({
      order: 15,
      path: `GraphQL subscriptions: ${subscriptions.length} open (${USERS} users, ${PROJECTS} projects, a socket each), ${EVENTS_PER_SECOND} issue updates/s for ${seconds} s`,
      figure:
        `${deliveries.received.toLocaleString('en-US')} of ${deliveries.expected.toLocaleString('en-US')} messages (${deliveries.missing} missing, ${deliveries.extra} extra) from ${sent.length} updates at ${figures.eventsPerSecond.toFixed(0)}/s; ` +
        `event → client from the PUT's return p50 ${fmtMs(latency.p50)}, p99 ${fmtMs(latency.p99)}, max ${fmtMs(latency.max)} ` +
        `(from its sending p99 ${fmtMs(figures.fromSend.p99)}; from its stream entry p50 ${fmtMs(figures.fromStream.p50)}, p99 ${fmtMs(figures.fromStream.p99)}; ` +
        `the entry p50 ${fmtMs(figures.streamFromReturn.p50)}, p99 ${fmtMs(figures.streamFromReturn.p99)} after the PUT's return; ` +
        `the subscribers' thread ${(status.busy * 100).toFixed(0)} % busy); ` +
        `gateway CPU ${cpuPerMessageUs.toFixed(1)} µs a message (${gatewayCpuSeconds.toFixed(1)} s); ` +
        `gateway RSS ${fmtBytes(figures.gatewayRss.before)} before, ${fmtBytes(figures.gatewayRss.open)} with the subscriptions open and idle, +${fmtBytes(growth)} at peak, ${fmtBytes(figures.gatewayRss.afterClose)} after the sockets closed`,
      anchor: '—',
      ratio: '—',
      goal: 'p99 ≤ 100 ms; gateway RSS growth ≤ 100 MiB; every message delivered',
      verdict: verdict(latency.p99 <= 100, growth <= 100 * MIB, !shortfall),
    });
    if (deliveries.beforeReturn)
      report.note(
        `subscriptions: ${deliveries.beforeReturn} messages arrived before their PUT's answer was read (counted as 0 ms)`,
      );
    if (deliveries.titlesBehind)
      report.note(`subscriptions: ${deliveries.titlesBehind} messages showed a title older than their update's`);
    if (shortfall)
      throw new Error(
        `subscriptions: ${deliveries.missing} messages missing, ${deliveries.extra} extra, ${failures.length} failed PUTs ${JSON.stringify(failures.slice(0, 3))}, ${statusText(status)}`,
      );
  } finally {
    await subscribers.terminate();
    await agent.close();
  }
}
