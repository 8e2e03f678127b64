import { z } from 'zod';
import type { TransactionSql } from '../db';
import type { Logger } from '../logger';
import { recordEvent, type StreamedEvent } from '../outbox';

/**
 * The payload version every event carries. A producer that changes a payload incompatibly adds a
 * new version beside the old; consumers that cannot read a version skip it (logged once).
 */
export const EVENT_VERSION = 1;

/** An event payload: its fields plus `v` (events recorded before versions existed read as 1). */
export const payload = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object({ v: z.literal(EVENT_VERSION).default(EVENT_VERSION), ...shape });

export type EventSchemas = Record<string, z.ZodObject>;

/** A producer's event contract: its service name and one schema per event type. */
export interface EventContract<Service extends string, Schemas extends EventSchemas> {
  service: Service;
  schemas: Schemas;
  /** Records one of this producer's events in the caller's transaction, typed and versioned. */
  record<T extends keyof Schemas & string>(
    tx: TransactionSql,
    type: T,
    payload: Omit<z.input<Schemas[T]>, 'v'>,
  ): Promise<void>;
}

/** The fields a producer gives for one of its events: its payload without `v`, added when recorded. */
export type EventFields<C, T extends string> =
  C extends EventContract<string, infer Schemas> ? Omit<z.input<Schemas[T]>, 'v'> : never;

export function defineEvents<const Service extends string, Schemas extends EventSchemas>(
  service: Service,
  schemas: Schemas,
): EventContract<Service, Schemas> {
  return {
    service,
    schemas,
    record: (tx, type, fields) =>
      recordEvent(tx, service, { type, payload: { v: EVENT_VERSION, ...(fields as object) } }),
  };
}

/** One event of a contract as a consumer gets it: `key` names it, `payload` is checked and typed. */
export type EventOf<C> =
  C extends EventContract<infer Service, infer Schemas>
    ? {
        [T in keyof Schemas & string]: { key: `${Service}:${T}`; event: StreamedEvent; payload: z.output<Schemas[T]> };
      }[keyof Schemas & string]
    : never;

/**
 * Reads stream entries against the contracts: a known event comes back checked and typed; a type
 * no contract declares comes back null; one whose payload does not match (a newer version, a
 * producer bug) is logged once per type and skipped, so it never stops a consumer group.
 */
export function createEventReader<Known extends { key: string }>(
  contracts: ReadonlyArray<{ service: string; schemas: EventSchemas }>,
  logger: Logger,
) {
  const byService = new Map(contracts.map((c) => [c.service, c]));
  const reported = new Set<string>();
  return (event: StreamedEvent): Known | null => {
    const schema = byService.get(event.service)?.schemas[event.type];
    if (!schema) return null;
    const key = `${event.service}:${event.type}`;
    const parsed = schema.safeParse(event.payload);
    if (!parsed.success) {
      if (!reported.has(key)) {
        reported.add(key);
        logger.error(
          { type: key, id: event.id, issues: parsed.error.issues.slice(0, 5) },
          'cannot read this event; skipping events like it',
        );
      }
      return null;
    }
    return { key, event, payload: parsed.data } as unknown as Known;
  };
}

/**
 * An internal (non-graph) endpoint: POST `path` with a JSON body. The owner validates the request
 * with `request`, the caller the answer with `response`; both sides get their types from here.
 */
export interface Endpoint<Request extends z.ZodType, Response extends z.ZodType> {
  path: string;
  request: Request;
  response: Response;
}

export const endpoint = <Request extends z.ZodType, Response extends z.ZodType>(
  path: string,
  request: Request,
  response: Response,
): Endpoint<Request, Response> => ({
  path,
  request,
  response,
});

export type RequestOf<E> = E extends Endpoint<infer Request, z.ZodType> ? z.input<Request> : never;
export type ResponseOf<E> = E extends Endpoint<z.ZodType, infer Response> ? z.output<Response> : never;
