import { pino, type Logger } from 'pino';
import { traceFields } from './trace-context';

export type { Logger };

/**
 * JSON logs on stdout, one `service` field per process so aggregated logs stay attributable, and
 * `trace_id` on every line logged inside a traced request so it leads to the request's spans.
 */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime, mixin: traceFields });
}
