import { RemoteGraphQLDataSource } from '@apollo/gateway';
import { PRINCIPAL_HEADER, requestIdHeaders } from '@hub/common';
import { Agent, request, type Dispatcher } from 'undici';
import type { GatewayContext } from './context';

/** One keep-alive pool for all subgraph calls: no TCP handshake per query plan fetch. */
export const createSubgraphAgent = () =>
  new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000, connections: 128 });

type Fetcher = NonNullable<ConstructorParameters<typeof RemoteGraphQLDataSource>[0]>['fetcher'];

/**
 * The part of fetch the data source uses (ok, status, headers.get, text, json), over undici's
 * `request`: WHATWG fetch and its streams cost more per call than the whole subgraph round trip
 * is worth measuring against (see `npm run bench`).
 */
const keepAliveFetch = (agent: Dispatcher) =>
  (async (url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) => {
    const response = await request(url, {
      method: (init.method ?? 'POST') as 'POST',
      headers: { ...init.headers, ...requestIdHeaders() },
      body: init.body,
      dispatcher: agent,
    });
    const text = await response.body.text();
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return {
      ok: response.statusCode >= 200 && response.statusCode < 300,
      status: response.statusCode,
      statusText: '',
      url,
      headers,
      text: async () => text,
      json: async () => JSON.parse(text),
    };
  }) as unknown as Fetcher;

/** Sends each subgraph fetch with the request's signed principal. */
export class SignedSubgraphSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(url: string, agent: Dispatcher) {
    super({ url, fetcher: keepAliveFetch(agent) });
  }

  override willSendRequest({
    request,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['willSendRequest']>>[0]) {
    if (context?.signedPrincipal) request.http?.headers.set(PRINCIPAL_HEADER, context.signedPrincipal);
  }
}
