// The subscribers of the subscriptions scenario, in a worker thread of the bench: the clients
// parse thousands of messages a second, and on the bench's main thread that work would delay the
// timestamps the event producer takes (an event's return would be seen late, its latency short).
// Arrival times are taken on the clock both threads share (performance.timeOrigin + now()).
import { parentPort, workerData } from 'node:worker_threads';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** What the scenario asks of this thread, and what it answers. */
export type SubscribersRequest =
  | { id: number; type: 'open' }
  | { id: number; type: 'status' }
  | { id: number; type: 'clear' }
  | { id: number; type: 'collect' }
  | { id: number; type: 'close' };

export interface SubscribersSetup {
  url: string;
  query: string;
  /** One entry per subscription: who subscribes, to which project, on which socket (a key). */
  subscriptions: Array<{ token: string; projectId: number; socket: string }>;
  /**
   * The warm-up issues: once cleared, their messages are only counted. Under load some arrive
   * after the clear, and counted as measured ones they ended the wait for the measured ones early.
   */
  warmIssueIds: number[];
}

export interface SubscribersStatus {
  /** Subscriptions that have received at least one message since the last clear. */
  live: number;
  received: number;
  /** Warm-up messages that came after the clear (not kept). */
  lateWarmUp: number;
  /**
   * The share of this thread's time spent working since the clear: near 1, the clients could not
   * keep up, and the latencies are the measuring thread's backlog rather than the gateway's.
   */
  busy: number;
  /** Errors and closes so far (the first few of each), and how many. */
  errors: string[];
  errorCount: number;
  closes: string[];
  closeCount: number;
}

/**
 * Per subscription: each message's arrival (ms on the shared clock), when its event entered the
 * stream (the ms of the stream id its cursor names, on Redis's clock: the same machine's), its
 * issue databaseId and title.
 */
export interface Collected {
  arrivals: Float64Array[];
  streamedAt: Float64Array[];
  issueIds: Int32Array[];
  titles: string[][];
}

export const clock = () => performance.timeOrigin + performance.now();

/** The ms part of the stream id a cursor (base64url of `<service>/<ms>-<seq>`) names. */
export const streamedAtOfCursor = (cursor: string) => {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return Number(text.slice(text.indexOf('/') + 1, text.indexOf('-')));
};

function run(setup: SubscribersSetup) {
  const clients = new Map<string, Client>();
  const arrivals: number[][] = setup.subscriptions.map(() => []);
  const streamedAt: number[][] = setup.subscriptions.map(() => []);
  const issueIds: number[][] = setup.subscriptions.map(() => []);
  const titles: string[][] = setup.subscriptions.map(() => []);
  const errors: string[] = [];
  const closes: string[] = [];
  let errorCount = 0;
  let closeCount = 0;
  let closing = false;
  let cleared = false;
  let lateWarmUp = 0;
  let sinceClear = performance.eventLoopUtilization();
  const warm = new Set(setup.warmIssueIds);
  const failed = (text: string) => {
    errorCount++;
    if (errors.length < 5) errors.push(text.slice(0, 500));
  };

  const clientFor = (socket: string, token: string) => {
    let client = clients.get(socket);
    if (!client) {
      client = createClient({
        url: setup.url,
        webSocketImpl: WebSocket,
        connectionParams: { privateToken: token },
        // A dropped socket is a failure of the run, not something to hide behind a reconnect.
        retryAttempts: 0,
        lazy: false,
        on: {
          closed: (event) => {
            if (closing) return;
            const { code, reason } = event as { code: number; reason: unknown };
            closeCount++;
            if (closes.length < 5) closes.push(`${code} ${String(reason)}`);
          },
        },
      });
      client.on('error', () => {});
      clients.set(socket, client);
    }
    return client;
  };

  const open = () => {
    setup.subscriptions.forEach(({ token, projectId, socket }, i) => {
      clientFor(socket, token).subscribe<{
        issueUpdated: { cursor: string; issue: { databaseId: number; title: string } };
      }>(
        { query: setup.query, variables: { projectId } },
        {
          next: (result) => {
            const at = clock();
            if (result.errors) return failed(JSON.stringify(result.errors));
            const { cursor, issue } = result.data!.issueUpdated;
            if (cleared && warm.has(issue.databaseId)) return void lateWarmUp++;
            arrivals[i].push(at);
            streamedAt[i].push(streamedAtOfCursor(cursor));
            issueIds[i].push(issue.databaseId);
            titles[i].push(issue.title);
          },
          error: (error) => failed(error instanceof Error ? error.message : JSON.stringify(error)),
          complete: () => {
            if (!closing) failed(`subscription ${i} completed`);
          },
        },
      );
    });
  };

  const status = (): SubscribersStatus => ({
    live: arrivals.filter((list) => list.length > 0).length,
    received: arrivals.reduce((sum, list) => sum + list.length, 0),
    lateWarmUp,
    busy: performance.eventLoopUtilization(sinceClear).utilization,
    errors,
    errorCount,
    closes,
    closeCount,
  });

  parentPort!.on('message', (request: SubscribersRequest) => {
    const answer = (value: unknown, transfer: ArrayBuffer[] = []) =>
      parentPort!.postMessage({ id: request.id, value }, transfer);
    switch (request.type) {
      case 'open':
        open();
        return answer(null);
      case 'status':
        return answer(status());
      case 'clear':
        cleared = true;
        sinceClear = performance.eventLoopUtilization();
        for (const list of [...arrivals, ...streamedAt, ...issueIds, ...titles]) list.length = 0;
        return answer(null);
      case 'collect': {
        const collected: Collected = {
          arrivals: arrivals.map((list) => Float64Array.from(list)),
          streamedAt: streamedAt.map((list) => Float64Array.from(list)),
          issueIds: issueIds.map((list) => Int32Array.from(list)),
          titles,
        };
        return answer(collected, [
          ...collected.arrivals.map((a) => a.buffer as ArrayBuffer),
          ...collected.streamedAt.map((a) => a.buffer as ArrayBuffer),
          ...collected.issueIds.map((a) => a.buffer as ArrayBuffer),
        ]);
      }
      case 'close':
        closing = true;
        return Promise.all([...clients.values()].map((client) => client.dispose())).then(() => answer(null));
    }
  });
}

if (parentPort && workerData?.subscribers) run(workerData.subscribers as SubscribersSetup);
