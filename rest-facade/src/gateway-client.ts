import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import {
  INTERNAL_GRAPHQL_PATH,
  INTERNAL_REFUSED_HEADER,
  LIMITED_HEADER,
  requestIdHeaders,
  signLimited,
  type Logger,
} from '@hub/common';
import { Pool } from 'undici';
import {
  fromGraphQLError,
  fromUserErrors,
  v3Error,
  V3Error,
  type GraphQLErrorShape,
  type UserErrorShape,
} from './v3-errors';

export type GatewayCall = <TData, TVariables>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
) => Promise<TData>;

/** How the facade runs its GraphQL documents: over HTTP to the gateway, or in its own process. */
export interface GatewayClient {
  /** The call bound to one request's credential headers and its client's address (which the facade's own limits counted). */
  forRequest(headers: Record<string, string>, client: string): GatewayCall;
  /**
   * Checks the credentials as every call would, asking no subgraph: the gateway's principal
   * resolution (cached). Refusals are thrown as v3 errors. Conditional requests use it before a 304.
   */
  authenticate(headers: Record<string, string>, client: string): Promise<void>;
  /** Readiness: whether the gateway can answer. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** A mutation's payload as the facade's documents select it: the public schema's `errors` beside the entity. */
const payloadErrorsOf = (value: unknown): readonly UserErrorShape[] | undefined => {
  const errors = (value as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) && errors.length ? (errors as UserErrorShape[]) : undefined;
};

/**
 * A GraphQL answer as the facade's routes want it: the data, or the first error as a v3 error.
 * A mutation's expected refusals arrive in its payload's `errors`; they are v3 errors too, so a
 * route reads a payload only when the mutation did what it asked.
 */
export function dataOf<TData>(payload: { data?: unknown; errors?: readonly GraphQLErrorShape[] }): TData {
  if (payload.errors?.length) throw fromGraphQLError(payload.errors[0]);
  if (!payload.data) throw v3Error(502, '502 Bad Gateway');
  for (const value of Object.values(payload.data)) {
    const refusals = payloadErrorsOf(value);
    if (refusals) throw fromUserErrors(refusals);
  }
  return payload.data as TData;
}

/**
 * The entity of a mutation's payload, which holds one whenever dataOf let it through without
 * errors; null then means a subgraph broke its contract, answered as v3's 500.
 */
export function payloadEntity<T>(entity: T | null | undefined): T {
  if (entity === null || entity === undefined) throw v3Error(500, '500 Internal Server Error');
  return entity;
}

/**
 * Sends the facade's fixed documents to the gateway's internal contract (the whole graph, which
 * only a caller holding the shared secret reaches) over a keep-alive pool. Each document is
 * printed once and the text reused, so the gateway's document and query-plan caches always hit.
 * Each call says, signed with the shared secret, that the facade has limited its client: the
 * gateway would otherwise count every client of this facade as one address (the facade's).
 */
export function createRemoteGatewayClient(url: string, secret: string, logger: Logger): GatewayClient {
  const pool = new Pool(url, { connections: 128, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
  const texts = new WeakMap<object, string>();
  const textOf = (document: TypedDocumentNode<unknown, unknown>) => {
    let text = texts.get(document);
    if (text === undefined) texts.set(document, (text = print(document)));
    return text;
  };

  /** Posts one document; the answer's data, or its first error as a v3 error. */
  async function post<TData>(
    headers: Record<string, string>,
    client: string,
    query: string,
    variables: unknown,
  ): Promise<TData> {
    let payload: { data?: unknown; errors?: GraphQLErrorShape[] };
    try {
      const response = await pool.request({
        path: INTERNAL_GRAPHQL_PATH,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...headers,
          [LIMITED_HEADER]: signLimited(client, secret),
          ...requestIdHeaders(),
        },
        body: JSON.stringify({ query, variables }),
      });
      if (response.headers[INTERNAL_REFUSED_HEADER] !== undefined) {
        // The gateway's door to the internal contract refused the note: the two processes hold
        // different secrets. Clients are told the service is unavailable; whoever runs it is
        // told what to fix.
        await response.body.dump();
        logger.error('the gateway refused the facade’s signed call: PRINCIPAL_SECRET differs between them');
        throw v3Error(503, '503 Service Unavailable');
      }
      payload = (await response.body.json()) as typeof payload;
      // A refusal's wait travels as a header; the facade answers it as v3's 429 with Retry-After.
      const retryAfter = response.headers['retry-after'];
      if (typeof retryAfter === 'string')
        for (const error of payload.errors ?? []) error.extensions = { ...error.extensions, retryAfter };
    } catch (error) {
      if (error instanceof V3Error) throw error;
      throw v3Error(502, '502 Bad Gateway');
    }
    return dataOf(payload);
  }

  return {
    forRequest: (headers, client) => (document, variables) =>
      post(headers, client, textOf(document as TypedDocumentNode<unknown, unknown>), variables),
    // The gateway resolves the principal before it plans anything; `__typename` needs no subgraph.
    authenticate: async (headers, client) => {
      await post(headers, client, '{ __typename }', {});
    },
    ready: async () => {
      const response = await pool.request({ path: '/healthz', method: 'GET' });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`gateway answered ${response.statusCode}`);
    },
    close: () => pool.close(),
  };
}
