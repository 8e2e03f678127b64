import { hostname } from 'node:os';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { currentRequestId } from './request-id';
import { markTracingStarted, REQUEST_ID_ATTRIBUTE } from './trace-context';

/**
 * Query parameters whose values never reach a span: v3's credentials (tokens, sudo, a password or
 * refresh token sent to /oauth/token as parameters), besides the instrumentation's own defaults
 * (signed cloud URLs), which setting the option replaces and which its index does not export.
 */
const REDACTED_QUERY_PARAMS = [
  ...[
    'sig',
    'Signature',
    'AWSAccessKeyId',
    'X-Goog-Signature',
    'X-Amz-Signature',
    'X-Amz-Credential',
    'X-Amz-Security-Token',
  ],
  ...['private_token', 'access_token', 'sudo', 'password', 'refresh_token'],
];

/** Probes and scrapes would start a root span every few seconds and tell nothing. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * An outgoing call's URL as its span keeps it: every query value replaced. Outgoing calls include
 * webhook deliveries, whose URLs are the users' and often carry a secret (`?token=...`) under any
 * name, so no value is kept, whatever the parameter.
 */
export function outgoingUrlAttributes(origin: string, path: string): Record<string, string> {
  let url: URL;
  try {
    url = new URL(path, origin);
  } catch {
    return {};
  }
  const names = [...new Set(url.searchParams.keys())];
  for (const name of names) url.searchParams.set(name, 'REDACTED');
  return { 'url.full': url.toString(), 'url.query': url.search };
}

/**
 * The tracer provider with the instrumentations this system needs: incoming HTTP (express
 * servers), outgoing HTTP through undici (subgraph fetches, internal calls, hook deliveries),
 * and gRPC both ways (the git worker). Postgres and Redis hops are traced by hand
 * (trace-context.ts). Traces only: metrics stay on /metrics and logs on stdout. The provider,
 * not @opentelemetry/sdk-node: that one loads every exporter, metrics and logs included, for
 * ~100 ms more CPU and ~8 MiB more per process. Loaded only when an endpoint is set (tracing.ts).
 */
export function startTracing(options: {
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  serviceName: string;
  scheduleDelayMs: number;
}): void {
  const url = `${options.endpoint}/v1/traces`;
  const exporter =
    options.protocol === 'http/json' ? new JsonTraceExporter({ url }) : new ProtobufTraceExporter({ url });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      'service.instance.id': `${hostname()}-${process.pid}`,
    }),
    spanProcessors: [
      new RequestIdSpanProcessor(),
      new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.scheduleDelayMs }),
    ],
  });
  // Also installs the AsyncLocalStorage context manager that carries a span across awaits.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]),
        requireParentforOutgoingSpans: true,
        redactedQueryParams: REDACTED_QUERY_PARAMS,
        redactedQueryParamsServer: REDACTED_QUERY_PARAMS,
        // Express has matched the route by the time the span ends: name the span after it.
        applyCustomAttributesOnSpan: (span, request) => {
          const { method, baseUrl, route } = request as {
            method?: string;
            baseUrl?: string;
            route?: { path?: unknown };
          };
          if (typeof route?.path !== 'string') return;
          const path = `${baseUrl ?? ''}${route.path}`;
          span.setAttribute('http.route', path);
          span.updateName(`${method} ${path}`);
        },
      }),
      // Background calls (relays, cache refreshes) outside any request make no root spans.
      new UndiciInstrumentation({
        requireParentforSpans: true,
        startSpanHook: (request) => outgoingUrlAttributes(request.origin, request.path),
      }),
      new GrpcInstrumentation(),
    ],
  });
  markTracingStarted(() => provider.shutdown());
}

/** Names the client request on every span started as part of one (request-id.ts). */
class RequestIdSpanProcessor implements SpanProcessor {
  onStart(span: Span, _parent: Context): void {
    const requestId = currentRequestId();
    if (requestId !== undefined) span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
  }
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
