import type { GatewayRuntime } from '@hub/gateway';
import { print, type DocumentNode, type GraphQLError } from 'graphql';
import { dataOf, type GatewayClient } from './gateway-client';
import type { GraphQLErrorShape } from './v3-errors';

/**
 * Runs the facade's documents on a gateway inside this process (GATEWAY_MODE=embedded), on the
 * internal contract: the same principal resolution, query plans and subgraph fetches as the
 * gateway process's /internal/graphql, without
 * the HTTP hop and the JSON encoding and parsing of every answer between the two.
 */
export function createEmbeddedGatewayClient(runtime: GatewayRuntime<'internal'>): GatewayClient {
  // Apollo Server prints a document it is handed on every call (it caches parsed documents by
  // their text); the facade's documents are a fixed set, so each is printed once.
  const texts = new WeakMap<DocumentNode, string>();
  const textOf = (document: DocumentNode) => {
    let text = texts.get(document);
    if (text === undefined) texts.set(document, (text = print(document)));
    return text;
  };
  /** The request's context: its principal, resolved as the gateway process resolves it. */
  async function contextFor(headers: Record<string, string>) {
    try {
      return await runtime.contextFor(headers);
    } catch (error) {
      // The principal resolver's refusals (401, 403 sudo, 404 sudo target, 503) are GraphQL
      // errors with a code, as the gateway process would have answered them.
      const { message, extensions } = error as GraphQLError;
      return dataOf<never>({ errors: [{ message, extensions } as GraphQLErrorShape] });
    }
  }
  return {
    forRequest: (headers) => async (document, variables) => {
      const contextValue = await contextFor(headers);
      const response = await runtime.servers.internal.executeOperation(
        { query: textOf(document), variables: variables as Record<string, unknown> },
        { contextValue },
      );
      if (response.body.kind !== 'single') throw new Error('incremental delivery is not used by the facade');
      return dataOf(response.body.singleResult as { data?: unknown; errors?: GraphQLErrorShape[] });
    },
    authenticate: async (headers) => {
      await contextFor(headers);
    },
    ready: runtime.identityReady,
    close: runtime.stop,
  };
}
