import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { Pool } from 'undici';
import { fromGraphQLError, v3Error, type GraphQLErrorShape } from './v3-errors';

export type GatewayCall = <TData, TVariables>(document: TypedDocumentNode<TData, TVariables>, variables: TVariables) => Promise<TData>;

/**
 * Sends the facade's fixed documents to the gateway over a keep-alive pool. Each document is
 * printed once and the text reused, so the gateway's document and query-plan caches always hit.
 */
export function createGatewayClient(url: string) {
  const pool = new Pool(url, { connections: 128, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
  const texts = new WeakMap<object, string>();
  const textOf = (document: TypedDocumentNode<unknown, unknown>) => {
    let text = texts.get(document);
    if (text === undefined) texts.set(document, (text = print(document)));
    return text;
  };

  /** The call bound to one request's credential headers. */
  const forRequest =
    (headers: Record<string, string>): GatewayCall =>
    async (document, variables) => {
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
      if (payload.errors?.length) throw fromGraphQLError(payload.errors[0]);
      if (!payload.data) throw v3Error(502, '502 Bad Gateway');
      return payload.data as never;
    };

  return { forRequest, close: () => pool.close() };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;
