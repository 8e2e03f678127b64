import { pino, type Logger } from 'pino';
import { currentRequestId } from './request-id';
import { traceFields } from './trace-context';

export type { Logger };

/**
 * JSON logs on stdout, one `service` field per process so aggregated logs stay attributable, and
 * `trace_id` on every line logged inside a traced request so it leads to the request's spans, and
 * `request_id` on every line logged for a client request, in whichever process.
 */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime, mixin: logContext });
}

function logContext(): Record<string, string> {
  const requestId = currentRequestId();
  const fields = traceFields();
  return requestId === undefined ? fields : { ...fields, request_id: requestId };
}
