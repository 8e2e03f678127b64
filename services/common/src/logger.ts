import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout, one `service` field per process so aggregated logs stay attributable. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
