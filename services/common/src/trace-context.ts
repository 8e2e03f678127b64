import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

/**
 * What the rest of the code needs from tracing, on the OpenTelemetry API alone: without the SDK
 * (no OTEL_EXPORTER_OTLP_ENDPOINT, see tracing.ts) every call here is a no-op costing a lookup.
 * The trace crosses Redis by hand: a W3C `traceparent` string rides in the outbox row, the
 * stream entry and the BullMQ job, and the consumer continues it.
 */

const tracer = () => trace.getTracer('@hub/common');

// Module state on purpose, as OpenTelemetry's own API is process-wide: the SDK starts from the
// side-effect import every main module makes first (tracing.ts), before any composition root runs,
// so there is nothing a root could pass in. Set once, by markTracingStarted.
let enabled = false;
let shutdown: () => Promise<void> = async () => {};

/** Called by the SDK setup once it runs; `flush` sends the spans still batched. */
export function markTracingStarted(flush: () => Promise<void>): void {
  enabled = true;
  shutdown = flush;
}

export const tracingEnabled = () => enabled;

/** Sends what is still batched; the shutdown path awaits it before the process exits. */
export const flushTracing = () => shutdown();

/** The active span's context as a W3C traceparent, or null outside a traced request. */
export function currentTraceparent(): string | null {
  if (!enabled) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Marks the span (the active one by default) failed with `error`, so a 5xx shows its cause. */
export function recordError(error: unknown, span: Span | undefined = trace.getActiveSpan()): void {
  if (!span) return;
  const exception = error instanceof Error ? error : new Error(String(error));
  span.recordException(exception);
  span.setStatus({ code: SpanStatusCode.ERROR, message: exception.message });
}

/**
 * Runs `work` in a consumer span that continues the trace `traceparent` names (an event or a
 * job made inside a request). Without a traceparent, or with tracing off, it just runs `work`.
 */
export async function continueTrace<T>(
  traceparent: string | null | undefined,
  name: string,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  if (!enabled || !traceparent) return work();
  const parent = propagation.extract(ROOT_CONTEXT, { traceparent });
  return tracer().startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      recordError(error, span);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The span attribute naming the client request a span is part of (request-id.ts). */
export const REQUEST_ID_ATTRIBUTE = 'request.id';

/** Names the request on the span that is active as a process starts to handle it (its server span). */
export function markRequestSpan(requestId: string): void {
  if (enabled) trace.getActiveSpan()?.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
}

/** Fields pino adds to every line logged inside a traced request (see createLogger). */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

const MAX_STATEMENT = 2000;

/**
 * The `postgres` client has no instrumentation: this wraps a pool so each awaited query inside a
 * traced request gets a client span (statement text only: parameters may hold secrets). A
 * query is lazy and runs when first awaited, so the span starts there; fragments built with
 * sql`` inside other queries are never awaited and get none. Transactions get a span of their
 * own around their queries. Queries outside a request (relays, pollers) make no root spans.
 */
export function traceSql<S extends (...args: never[]) => unknown>(sql: S, schema: string): S {
  const queryOf = (text: string, query: PromiseLike<unknown>) => {
    const then = query.then;
    let started = false;
    query.then = function (this: PromiseLike<unknown>, ...args: Parameters<typeof then>) {
      if (!started) {
        started = true;
        const parent = context.active();
        if (trace.getSpan(parent)) {
          const operation = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? 'query';
          const span = tracer().startSpan(
            `postgres ${operation}`,
            {
              kind: SpanKind.CLIENT,
              attributes: {
                'db.system.name': 'postgresql',
                'db.namespace': schema,
                'db.operation.name': operation,
                'db.query.text': text.slice(0, MAX_STATEMENT),
              },
            },
            parent,
          );
          then.call(
            this,
            () => span.end(),
            (error: unknown) => {
              recordError(error, span);
              span.end();
            },
          );
        }
      }
      return then.apply(this, args) as never;
    } as typeof then;
    return query;
  };

  const isTemplate = (value: unknown): value is TemplateStringsArray =>
    Array.isArray(value) && 'raw' in (value as object);

  const wrap = <F extends (...args: never[]) => unknown>(target: F): F =>
    new Proxy(target, {
      apply(fn, self, args: unknown[]) {
        const result = Reflect.apply(fn, self, args);
        // sql(rows) and sql(identifier) are helpers, not queries.
        return isTemplate(args[0])
          ? queryOf(
              args[0].reduce((text, part, i) => `${text}$${i}${part}`),
              result as PromiseLike<unknown>,
            )
          : result;
      },
      get(fn, property, receiver) {
        const value = Reflect.get(fn, property, receiver);
        if (property === 'unsafe') {
          return (text: string, ...rest: unknown[]) =>
            queryOf(text, (value as (...a: unknown[]) => PromiseLike<unknown>).call(fn, text, ...rest));
        }
        if (property === 'begin' || property === 'savepoint') {
          return (...args: unknown[]) => {
            // begin(options?, callback): the callback gets the transaction's own sql.
            const callback = args[args.length - 1] as (tx: F) => unknown;
            const run = (value as (...a: unknown[]) => Promise<unknown>).bind(fn);
            const parent = context.active();
            if (!trace.getSpan(parent)) return run(...args.slice(0, -1), (tx: F) => callback(wrap(tx)));
            return tracer().startActiveSpan(
              `postgres ${String(property)}`,
              { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.namespace': schema } },
              async (span) => {
                const inside = context.active();
                try {
                  // The client calls back from its own socket events: bind the callback to this span.
                  return await run(
                    ...args.slice(0, -1),
                    context.bind(inside, (tx: F) => callback(wrap(tx))),
                  );
                } catch (error) {
                  recordError(error, span);
                  throw error;
                } finally {
                  span.end();
                }
              },
            );
          };
        }
        return value;
      },
    });

  return wrap(sql);
}
