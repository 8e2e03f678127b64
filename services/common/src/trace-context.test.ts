import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { continueTrace, currentTraceparent, markTracingStarted, traceFields, traceSql } from './trace-context';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** A stand-in for the `postgres` client: a query runs when first awaited, as postgres.js's do. */
class FakeQuery extends Promise<unknown[]> {
  static override get [Symbol.species]() {
    return Promise;
  }
  constructor(
    executor: ConstructorParameters<typeof Promise<unknown[]>>[0],
    private readonly run: () => void = () => {},
  ) {
    super(executor);
  }
  override then<A = unknown[], B = never>(
    onOk?: ((value: unknown[]) => A | PromiseLike<A>) | null,
    onErr?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ) {
    this.run();
    return super.then(onOk, onErr);
  }
}

function fakeSql(executed: string[]) {
  const query = (text: string) => {
    let settle!: (rows: unknown[]) => void;
    let fail!: (error: unknown) => void;
    let ran = false;
    return new FakeQuery(
      (resolve, reject) => {
        settle = resolve;
        fail = reject;
      },
      () => {
        if (ran) return;
        ran = true;
        executed.push(text);
        setImmediate(() => (text.includes('fail') ? fail(new Error('relation does not exist')) : settle([])));
      },
    );
  };
  const sql = (strings: TemplateStringsArray, ..._values: unknown[]) => query(strings.join('$'));
  return Object.assign(sql, {
    unsafe: (text: string) => query(text),
    begin: async (callback: (tx: typeof sql) => Promise<unknown>) => callback(sql),
  });
}

const inSpan = <T>(work: () => Promise<T>) =>
  trace.getTracer('test').startActiveSpan('request', async (span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });

beforeAll(() => {
  provider.register();
  markTracingStarted(async () => {});
});
beforeEach(() => exporter.reset());
afterAll(() => provider.shutdown());

describe('traced Postgres queries', () => {
  it('give each awaited query a client span under the request, and none to fragments', async () => {
    const executed: string[] = [];
    const sql = traceSql(fakeSql(executed), 'projects');
    await inSpan(async () => {
      const fragment = sql`and archived = false`;
      await sql`select * from projects where id = ${1} ${fragment}`;
      await sql.unsafe('update projects set name = 1');
    });
    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => s.name === 'request')!;
    expect(
      spans
        .filter((s) => s.name !== 'request')
        .map((s) => [s.name, s.attributes['db.query.text'], s.parentSpanContext?.spanId]),
    ).toEqual([
      ['postgres select', 'select * from projects where id = $1 $2', request.spanContext().spanId],
      ['postgres update', 'update projects set name = 1', request.spanContext().spanId],
    ]);
    expect(executed).toHaveLength(2);
  });

  it('put a transaction span around its queries, and mark a failing query', async () => {
    const sql = traceSql(fakeSql([]), 'hooks');
    await inSpan(() =>
      sql.begin(async (tx) => {
        await tx`insert into outbox values (1)`;
        await expect(tx`select fail`).rejects.toThrow('relation does not exist');
      }),
    );
    const spans = exporter.getFinishedSpans();
    const begin = spans.find((s) => s.name === 'postgres begin')!;
    expect(begin.parentSpanContext?.spanId).toBe(spans.find((s) => s.name === 'request')!.spanContext().spanId);
    const inside = spans.filter((s) => s.parentSpanContext?.spanId === begin.spanContext().spanId);
    expect(inside.map((s) => [s.name, s.status.code])).toEqual([
      ['postgres insert', SpanStatusCode.UNSET],
      ['postgres select', SpanStatusCode.ERROR],
    ]);
  });

  it('make no spans outside a request (relays and pollers)', async () => {
    const executed: string[] = [];
    const sql = traceSql(fakeSql(executed), 'projects');
    await sql`select 1`;
    expect(executed).toEqual(['select 1']);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('a trace carried through Redis', () => {
  it('is continued from the traceparent recorded inside the request, and the failure is marked', async () => {
    let recorded: string | null = null;
    let logged: Record<string, string> = {};
    await inSpan(async () => {
      recorded = currentTraceparent();
    });
    const request = exporter.getFinishedSpans()[0].spanContext();
    expect(recorded).toBe(`00-${request.traceId}-${request.spanId}-01`);
    await expect(
      continueTrace(
        recorded,
        'git_worker push event',
        { 'messaging.destination.name': 'events:git_worker' },
        async () => {
          logged = traceFields();
          throw new Error('receiver gone');
        },
      ),
    ).rejects.toThrow('receiver gone');
    const consumer = exporter.getFinishedSpans()[1];
    expect([consumer.spanContext().traceId, consumer.parentSpanContext?.spanId, consumer.status.code]).toEqual([
      request.traceId,
      request.spanId,
      SpanStatusCode.ERROR,
    ]);
    expect(logged).toEqual({ trace_id: request.traceId, span_id: consumer.spanContext().spanId });
  });

  it('is absent outside a request: nothing to carry, the work runs untraced', async () => {
    expect(currentTraceparent()).toBeNull();
    expect(traceFields()).toEqual({});
    expect(await continueTrace(null, 'x', {}, async () => trace.getSpan(context.active()))).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
