import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { Pool } from 'undici';
import { fromGraphQLError, v3Error, type GraphQLErrorShape } from './v3-errors';

export type GatewayCall = <TData, TVariables>(document: TypedDocumentNode<TData, TVariables>, variables: TVariables) => Promise<TData>;

/** How the facade runs its GraphQL documents: over HTTP to the gateway, or in its own process. */
export interface GatewayClient {
  /** The call bound to one request's credential headers. */
  forRequest(headers: Record<string, string>): GatewayCall;
  /** Readiness: whether the gateway can answer. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** A GraphQL answer as the facade's routes want it: the data, or the first error as a v3 error. */
export function dataOf<TData>(payload: { data?: unknown; errors?: readonly GraphQLErrorShape[] }): TData {
  if (payload.errors?.length) throw fromGraphQLError(payload.errors[0]);
  if (!payload.data) throw v3Error(502, '502 Bad Gateway');
  return payload.data as TData;
}

/**
 * Sends the facade's fixed documents to the gateway over a keep-alive pool. Each document is
 * printed once and the text reused, so the gateway's document and query-plan caches always hit.
 */
export function createRemoteGatewayClient(url: string): GatewayClient {
  const pool = new Pool(url, { connections: 128, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
  const texts = new WeakMap<object, string>();
  const textOf = (document: TypedDocumentNode<unknown, unknown>) => {
    let text = texts.get(document);
    if (text === undefined) texts.set(document, (text = print(document)));
    return text;
  };

  return {
    forRequest: (headers) => async (document, variables) => {
      let payload: { data?: unknown; errors?: GraphQLErrorShape[] };
      try {
        const response = await pool.request({
          path: '/graphql',
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ query: textOf(document as TypedDocumentNode<unknown, unknown>), variables }),
        });
        payload = (await response.body.json()) as typeof payload;
      } catch {
        throw v3Error(502, '502 Bad Gateway');
      }
      return dataOf(payload);
    },
    ready: async () => {
      const response = await pool.request({ path: '/healthz', method: 'GET' });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`gateway answered ${response.statusCode}`);
    },
    close: () => pool.close(),
  };
}
