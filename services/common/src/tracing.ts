import { basename, dirname } from 'node:path';
import { loadConfig } from './config';

/**
 * Tracing for the process whose main module imports this one before anything else: the
 * instrumentations patch http, undici and gRPC when those are first required, so they must be
 * in place first. Without OTEL_EXPORTER_OTLP_ENDPOINT the SDK is not even loaded and the
 * OpenTelemetry API stays a no-op (no memory, no per-request cost).
 */
const config = loadConfig([] as const, { optional: ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME'] as const });

if (config.OTEL_EXPORTER_OTLP_ENDPOINT) {
  // Read only when exporting: an OTEL_EXPORTER_OTLP_PROTOCOL inherited from another setup (grpc,
  // say) must not stop a process that traces nothing.
  const exporting = loadConfig(['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_BSP_SCHEDULE_DELAY'] as const);
  // The process's folder names it (services/<name>/dist/main.js, gateway/dist/main.js).
  const entry = require.main?.filename;
  const serviceName = config.OTEL_SERVICE_NAME ?? (entry ? basename(dirname(dirname(entry))) : 'unknown');
  // Loaded only when tracing is on, so that a process without it loads no OpenTelemetry code.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTracing } = require('./tracing-sdk') as typeof import('./tracing-sdk');
  startTracing({
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    protocol: exporting.OTEL_EXPORTER_OTLP_PROTOCOL,
    serviceName,
    scheduleDelayMs: exporting.OTEL_BSP_SCHEDULE_DELAY,
  });
}
