import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { markTracingStarted } from './trace-context';

/** Probes and scrapes would start a root span every few seconds and tell nothing. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The OpenTelemetry SDK with the instrumentations this system needs: incoming HTTP (express
 * servers), outgoing HTTP through undici (subgraph fetches, internal calls, hook deliveries),
 * and gRPC both ways (the git worker). Postgres and Redis hops are traced by hand
 * (trace-context.ts). Traces only: metrics stay on /metrics (Prometheus) and logs on stdout.
 * Loaded only when an endpoint is configured (tracing.ts).
 */
export function startTracing(options: {
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  serviceName: string;
  scheduleDelayMs: number;
}): void {
  const url = `${options.endpoint}/v1/traces`;
  const exporter = options.protocol === 'http/json' ? new JsonTraceExporter({ url }) : new ProtobufTraceExporter({ url });
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.scheduleDelayMs })],
    // Empty, not absent: absent means "configure from OTEL_* variables", which exports both.
    metricReaders: [],
    logRecordProcessors: [],
    textMapPropagator: new W3CTraceContextPropagator(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]),
        requireParentforOutgoingSpans: true,
      }),
      // Background calls (relays, cache refreshes) outside any request make no root spans.
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new GrpcInstrumentation(),
    ],
  });
  sdk.start();
  markTracingStarted(() => sdk.shutdown());
}
