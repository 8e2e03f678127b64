import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startStack, type Stack } from '@hub/local';
import { isolatedEnv, tempDir } from '../support/global-setup';
import { startReceiver } from '../support/webhook-receiver';

interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  status: { code?: number; message?: string };
  events: Array<{ name: string }>;
  /** String attributes only (the ones asked about here). */
  attributes: Record<string, string>;
}

/** OTLP/JSON ids are hex; the protobuf-shaped JSON some encoders send is base64. */
const hexId = (id: string | undefined) =>
  !id ? null : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');

/** A real OTLP/HTTP collector on loopback, decoding the JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). */
async function startCollector() {
  const spans: CollectedSpan[] = [];
  // Every export as sent, to look for what must never be in one.
  const raw: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        raw.push(Buffer.concat(chunks).toString('utf8'));
        const body = JSON.parse(raw[raw.length - 1]);
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')
            ?.value?.stringValue;
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              spans.push({
                service,
                traceId: hexId(span.traceId)!,
                spanId: hexId(span.spanId)!,
                parentSpanId: hexId(span.parentSpanId),
                name: span.name,
                kind: span.kind,
                status: span.status ?? {},
                events: span.events ?? [],
                attributes: Object.fromEntries(
                  (span.attributes ?? [])
                    .filter((a: { value?: { stringValue?: string } }) => a.value?.stringValue !== undefined)
                    .map((a: { key: string; value: { stringValue: string } }) => [a.key, a.value.stringValue]),
                ),
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    of: (traceId: string) => spans.filter((s) => s.traceId === traceId),
    count: () => spans.length,
    raw: () => raw.join('\n'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the trace holds spans of every named service and a span matching `last`, then
 * until no span has arrived for a while: each process exports its own batches, and a parent
 * (the facade's request) often ends, and is sent, after its children.
 */
async function settledTrace(
  collector: Awaited<ReturnType<typeof startCollector>>,
  traceId: string,
  services: string[],
  last: (s: CollectedSpan) => boolean,
) {
  const deadline = Date.now() + 20_000;
  const complete = () => {
    const spans = collector.of(traceId);
    return services.every((service) => spans.some((s) => s.service === service)) && spans.some(last);
  };
  while (!complete()) {
    if (Date.now() > deadline) {
      const spans = collector.of(traceId);
      throw new Error(
        `trace incomplete after 20 s: ${spans.length} spans from ${[...new Set(spans.map((s) => s.service))].join(', ')}`,
      );
    }
    await sleep(100);
  }
  for (let seen = -1; seen !== collector.count();) {
    seen = collector.count();
    await sleep(1000);
  }
  return collector.of(traceId);
}

/** Every span's parent is in the trace, up to the caller's own span: one connected tree. */
function unconnected(spans: CollectedSpan[], rootSpanId: string): CollectedSpan[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => s.parentSpanId !== rootSpanId && !(s.parentSpanId && ids.has(s.parentSpanId)));
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const SPAN_KIND_CONSUMER = 5;

// A private stack with tracing on: the shared one runs without it, as production does by default.
describe('tracing across processes', () => {
  let stack: Stack;
  let dir: string;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const HOOK_SECRET = `hook-secret-${randomBytes(8).toString('hex')}`;
  const HOOK_PATH = `push?token=${HOOK_SECRET}`;
  let remoteFacade: string;
  let project: { id: number; path_with_namespace: string };

  const call = async (base: string, method: string, path: string, body: unknown, traceparent: string) => {
    const response = await fetch(`${base}/api/v3${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': stack.rootToken, 'content-type': 'application/json', traceparent },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  /** A caller's own span: the trace id and the parent the facade's first span must name. */
  const callerSpan = () => {
    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
  };

  beforeAll(async () => {
    collector = await startCollector();
    receiver = await startReceiver();
    dir = tempDir('hub-tracing-');
    stack = await startStack({
      dataDir: dir,
      env: isolatedEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        LOG_LEVEL: 'debug',
      }),
      freePorts: true,
      logs: { kind: 'files', dir },
      log: () => {},
    });
    // A facade that sends its queries to the gateway process, beside the stack's embedded one.
    remoteFacade = (await stack.startReplica('rest-facade', { GATEWAY_MODE: 'remote' })).url;
    const setup = callerSpan().traceparent;
    const created = await call(
      stack.restUrl.replace(/\/api\/v3$/, ''),
      'POST',
      '/projects',
      { name: `traced-${Date.now()}` },
      setup,
    );
    expect(created.status).toBe(201);
    project = created.body;
    const hook = await call(
      stack.restUrl.replace(/\/api\/v3$/, ''),
      'POST',
      `/projects/${project.id}/hooks`,
      { url: receiver.url(HOOK_PATH), push_events: true },
      setup,
    );
    expect(hook.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await collector?.close();
    if (dir && !process.env.KEEP_E2E_DATA) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const commitFile = (base: string, file: string, traceparent: string) =>
    call(
      base,
      'POST',
      `/projects/${encodeURIComponent(project.path_with_namespace)}/repository/files`,
      {
        file_path: file,
        branch_name: 'master',
        content: `${file}\n`,
        commit_message: `add ${file}`,
      },
      traceparent,
    );

  it('follows one REST call from the embedded facade through projects, repository and the git worker to the hook delivery', async () => {
    const caller = callerSpan();
    const committed = await commitFile(stack.restUrl.replace(/\/api\/v3$/, ''), 'embedded.txt', caller.traceparent);
    expect(committed.status).toBe(201);
    const [delivery] = await receiver.waitFor(HOOK_PATH, 1, 20_000);
    // The receiver's request continues the same trace.
    expect(delivery.headers.traceparent).toMatch(new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`));

    const services = ['rest-facade', 'projects', 'repository', 'git-worker', 'hooks-worker'];
    const spans = await settledTrace(
      collector,
      caller.traceId,
      services,
      (s) => s.service === 'hooks-worker' && s.kind === SPAN_KIND_CLIENT,
    );
    expect(unconnected(spans, caller.spanId)).toEqual([]);
    const byName = (service: string, test: (s: CollectedSpan) => boolean) =>
      spans.filter((s) => s.service === service && test(s));
    // The facade's request span is the caller's child; the embedded gateway plans and fetches in it.
    expect(
      byName('rest-facade', (s) => s.kind === SPAN_KIND_SERVER && s.parentSpanId === caller.spanId).map((s) => s.name),
    ).toEqual(['POST /api/v3/projects/:id/repository/files']);
    expect(byName('rest-facade', (s) => s.name === 'gateway.fetch').length).toBeGreaterThan(0);
    for (const service of ['projects', 'repository'])
      expect(byName(service, (s) => s.kind === SPAN_KIND_SERVER).length).toBeGreaterThan(0);
    // gRPC both ways, Postgres in the services, the event continued by the hook worker.
    expect(
      byName('repository', (s) => s.kind === SPAN_KIND_CLIENT && s.name.startsWith('grpc.')).length,
    ).toBeGreaterThan(0);
    expect(
      byName('git-worker', (s) => s.kind === SPAN_KIND_SERVER && s.name.startsWith('grpc.')).length,
    ).toBeGreaterThan(0);
    expect(byName('git-worker', (s) => s.name === 'postgres insert').length).toBeGreaterThan(0);
    expect(
      byName('hooks-worker', (s) => s.kind === SPAN_KIND_CONSUMER && s.name === 'git_worker push event'),
    ).toHaveLength(1);
    const attempt = byName('hooks-worker', (s) => s.name.startsWith('hook delivery'));
    expect(attempt).toHaveLength(1);
    // The POST the receiver got is the delivery's child span.
    const post = byName(
      'hooks-worker',
      (s) => s.kind === SPAN_KIND_CLIENT && s.name === 'POST' && s.parentSpanId === attempt[0].spanId,
    );
    expect(post).toHaveLength(1);
    expect(delivery.headers.traceparent).toBe(`00-${caller.traceId}-${post[0].spanId}-01`);
    // The hook's URL is the user's, secret and all: its span keeps the parameter, not the value.
    expect(collector.raw()).toContain('push?token=REDACTED');
    expect(collector.raw()).not.toContain(HOOK_SECRET);

    // The facade's log line for the request carries its trace id.
    const lines = readFileSync(join(dir, 'rest-facade.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes(caller.traceId))
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        route: '/api/v3/projects/:id/repository/files',
        status: 201,
        trace_id: caller.traceId,
      }),
    );
  }, 60_000);

  it('names the client’s request id on the spans and log lines of every process the request reaches', async () => {
    const caller = callerSpan();
    const requestId = `trace-test.${randomBytes(6).toString('hex')}`;
    const response = await fetch(
      `${remoteFacade}/api/v3/projects/${encodeURIComponent(project.path_with_namespace)}/repository/files`,
      {
        method: 'POST',
        headers: {
          'PRIVATE-TOKEN': stack.rootToken,
          'content-type': 'application/json',
          traceparent: caller.traceparent,
          'x-request-id': requestId,
        },
        body: JSON.stringify({
          file_path: 'request-id.txt',
          branch_name: 'master',
          content: 'id\n',
          commit_message: 'add request-id.txt',
        }),
      },
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    // The facade, the gateway process, the subgraphs it asks and the git worker they call.
    const services = ['rest-facade', 'gateway', 'repository', 'git-worker'];
    const spans = await settledTrace(
      collector,
      caller.traceId,
      services,
      (s) => s.service === 'git-worker' && s.kind === SPAN_KIND_SERVER,
    );
    for (const service of services) {
      const served = spans.filter((s) => s.service === service && s.kind === SPAN_KIND_SERVER);
      expect({ service, served: served.length > 0 }).toEqual({ service, served: true });
      for (const span of served)
        expect({ service, span: span.name, id: span.attributes['request.id'] }).toEqual({
          service,
          span: span.name,
          id: requestId,
        });
    }
    // Spans begun inside a request (here the gateway's fetches to the subgraphs) name it too.
    const inside = spans.filter((s) => s.kind === SPAN_KIND_CLIENT && s.service === 'gateway');
    expect(inside.length).toBeGreaterThan(0);
    for (const span of inside)
      expect({ span: span.name, id: span.attributes['request.id'] }).toEqual({ span: span.name, id: requestId });
    // Every line each process logged for the request carries the id (LOG_LEVEL is debug here).
    for (const service of ['rest-facade', 'gateway', 'repository']) {
      // The remote facade is a replica (rest-facade-2.log, ...): every file of the kind is read.
      const lines = readdirSync(dir)
        .filter((file) => file.startsWith(service) && file.endsWith('.log'))
        .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
        .filter((line) => line.includes(caller.traceId))
        .map((line) => JSON.parse(line));
      expect({ service, logged: lines.length > 0 }).toEqual({ service, logged: true });
      for (const line of lines) expect({ service, id: line.request_id }).toEqual({ service, id: requestId });
    }
  }, 60_000);

  it('connects through the gateway process when the facade sends its queries there', async () => {
    const caller = callerSpan();
    const committed = await commitFile(remoteFacade, 'remote.txt', caller.traceparent);
    expect(committed.status).toBe(201);
    const spans = await settledTrace(
      collector,
      caller.traceId,
      ['rest-facade', 'gateway', 'projects', 'repository', 'git-worker'],
      (s) => s.service === 'git-worker' && s.kind === SPAN_KIND_SERVER,
    );
    expect(unconnected(spans, caller.spanId)).toEqual([]);
    // The facade's fetch to the gateway is the parent of the gateway's request span.
    const gatewayRequests = spans.filter((s) => s.service === 'gateway' && s.kind === SPAN_KIND_SERVER);
    expect(gatewayRequests.length).toBeGreaterThan(0);
    for (const request of gatewayRequests)
      expect(spans.find((s) => s.spanId === request.parentSpanId)).toMatchObject({
        service: 'rest-facade',
        kind: SPAN_KIND_CLIENT,
      });
  }, 60_000);

  it('redacts credentials sent as query parameters from the spans it exports', async () => {
    const caller = callerSpan();
    const secrets = {
      private_token: stack.rootToken,
      sudo: 'root',
      password: `pw-${randomBytes(8).toString('hex')}`,
      access_token: `at-${randomBytes(8).toString('hex')}`,
    };
    const base = stack.restUrl.replace(/\/api\/v3$/, '');
    for (const [name, value] of Object.entries(secrets)) {
      const response = await fetch(`${base}/api/v3/projects?per_page=1&${name}=${encodeURIComponent(value)}`, {
        headers: { traceparent: caller.traceparent },
      });
      await response.arrayBuffer();
    }
    await settledTrace(
      collector,
      caller.traceId,
      ['rest-facade'],
      (s) => s.service === 'rest-facade' && s.kind === SPAN_KIND_SERVER,
    );
    const exported = collector.raw();
    // The query is exported, with each value replaced.
    for (const name of Object.keys(secrets)) expect(exported).toContain(`per_page=1&${name}=REDACTED`);
    for (const value of [secrets.private_token, secrets.password, secrets.access_token])
      expect(exported).not.toContain(value);
  }, 60_000);

  it('marks a failed request on its span with the cause', async () => {
    const caller = callerSpan();
    await stack.stopProcess('git-worker');
    try {
      const failed = await commitFile(stack.restUrl.replace(/\/api\/v3$/, ''), 'down.txt', caller.traceparent);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const spans = await settledTrace(
        collector,
        caller.traceId,
        ['rest-facade', 'repository'],
        (s) => s.service === 'rest-facade' && s.kind === SPAN_KIND_SERVER,
      );
      expect(unconnected(spans, caller.spanId)).toEqual([]);
      const SPAN_STATUS_ERROR = 2;
      expect(spans.find((s) => s.service === 'rest-facade' && s.kind === SPAN_KIND_SERVER)).toMatchObject({
        status: { code: SPAN_STATUS_ERROR },
      });
      // The gRPC call that failed is in the trace, marked.
      expect(
        spans.filter(
          (s) => s.service === 'repository' && s.name.startsWith('grpc.') && s.status.code === SPAN_STATUS_ERROR,
        ).length,
      ).toBeGreaterThan(0);
    } finally {
      await stack.restart('git-worker');
    }
  }, 60_000);
});
