import { RemoteGraphQLDataSource } from '@apollo/gateway';
import { PRINCIPAL_HEADER } from '@hub/common';
import { Agent, fetch as undiciFetch } from 'undici';
import type { GatewayContext } from './context';

/** One keep-alive pool for all subgraph calls: no TCP handshake per query plan fetch. */
export const subgraphAgent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, connections: 128 });

const keepAliveFetch = ((input: string, init?: Record<string, unknown>) =>
  undiciFetch(input, { ...init, dispatcher: subgraphAgent } as Parameters<typeof undiciFetch>[1])) as unknown as NonNullable<
  ConstructorParameters<typeof RemoteGraphQLDataSource>[0]
>['fetcher'];

/** Sends each subgraph fetch with the request's signed principal. */
export class SignedSubgraphSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(url: string) {
    super({ url, fetcher: keepAliveFetch });
  }

  override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]) {
    if (context?.signedPrincipal) request.http?.headers.set(PRINCIPAL_HEADER, context.signedPrincipal);
  }
}
