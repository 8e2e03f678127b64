// The GraphQL explorer the gateway serves at GET /graphql to browsers (gateway/src/explorer.ts):
// GraphiQL with its docs explorer and query history, and a field for the caller's private token.
// Bundled at build time by gateway/scripts/bundle-explorer.cjs; it loads nothing but its own files
// and talks only to this origin's /graphql: queries and mutations over HTTP, subscriptions over
// WebSocket (graphql-ws).
import { GraphiQL, type GraphiQLProps } from 'graphiql';
import { getOperationAST, GraphQLError, parse } from 'graphql';
// The client alone: the package's main entry brings its server along.
import { CloseCode, createClient, type Client, type ExecutionResult } from 'graphql-ws/client';
import { type FormEvent, StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './explorer.css';

const ENDPOINT = '/graphql';
/** The same endpoint over WebSocket, on this page's host: ws: beside http:, wss: beside https:. */
const LIVE_ENDPOINT = (() => {
  const url = new URL(ENDPOINT, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
})();
const TOKEN_KEY = 'v3hub-explorer:private-token';

const DEFAULT_QUERY = `# Put your private token above: the docs (left) and completion
# need a signed-in caller. Run with Ctrl-Enter.
{
  viewer {
    username
  }
}
`;

const readToken = () => {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
};

const keepToken = (token: string) => {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage refused (a private window): the token still applies until the page closes.
  }
};

/** The token in use: what the field last applied. */
let tokenInUse = readToken();

/** What the fetcher gives GraphiQL for one operation: the server's JSON answer. */
type Answer = Awaited<Extract<ReturnType<GraphiQLProps['fetcher']>, Promise<unknown>>>;

/** POSTs one operation to /graphql: GraphiQL's headers editor's headers, then the token as PRIVATE-TOKEN. */
async function post(token: string, params: unknown, editorHeaders: unknown): Promise<Answer> {
  const headers = new Headers(editorHeaders as HeadersInit | undefined);
  headers.set('content-type', 'application/json');
  headers.set('accept', 'application/json');
  if (token) headers.set('PRIVATE-TOKEN', token);
  const response = await fetch(ENDPOINT, {
    method: 'POST',
    headers,
    body: JSON.stringify(params),
    credentials: 'omit',
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as Answer;
  } catch {
    // Not GraphQL's JSON (a proxy's error page): say what came back.
    return { errors: [new GraphQLError(`${response.status} ${response.statusText}: ${text.slice(0, 500)}`)] };
  }
}

/** Whether the operation GraphiQL runs is a subscription; a document that does not parse goes to the server, which says why. */
function isSubscription(params: { query: string; operationName?: string | null }): boolean {
  try {
    return getOperationAST(parse(params.query), params.operationName ?? undefined)?.operation === 'subscription';
  } catch {
    return false;
  }
}

/**
 * One result GraphiQL shows, as its fetcher type names it: graphql-ws's ExecutionResult, whose
 * errors are GraphQLErrors. What comes off the wire are their formatted (JSON) forms, which
 * GraphiQL prints the same: it does nothing with a result but print it.
 */
type Result = ExecutionResult;

/** An answer of errors alone, shown in the result pane as the server's own are. */
const failed = (message: string): Result => ({ errors: [new GraphQLError(message)] });

/** The socket's close (graphql-ws rejects with it) or another failure, said for the result pane. */
function subscriptionFailure(error: unknown): Result {
  // The server's error message for this operation (a document that does not validate).
  if (Array.isArray(error)) return { errors: error as GraphQLError[] };
  const close = error as { code?: unknown; reason?: unknown };
  if (typeof close.code === 'number') {
    const said = `${close.code}${close.reason ? `: ${String(close.reason)}` : ''}`;
    return failed(
      close.code === CloseCode.Unauthorized
        ? `The gateway refused this token for subscriptions (${said}). Check the token above.`
        : `The subscription's connection closed (${said}).`,
    );
  }
  return failed(error instanceof Error ? error.message : `The subscription failed: ${String(error)}`);
}

/** The graphql-ws client of the token in use: one socket, opened by its first subscription. */
let live: { token: string; client: Client } | undefined;

/** Closes the socket of a token no longer in use; what ran on it ends. */
function closeLive() {
  void live?.client.dispose();
  live = undefined;
}

function liveClient(token: string): Client {
  if (live?.token !== token) {
    closeLive();
    // A browser's WebSocket sends no headers of ours: the token goes in connection_init.
    const client = createClient({ url: LIVE_ENDPOINT, connectionParams: { privateToken: token } });
    live = { token, client };
  }
  return live.client;
}

/**
 * One subscription as GraphiQL reads it, message by message. graphql-ws's iterator throws the
 * socket's close; here that becomes one last answer saying why, so the result pane shows it as
 * text instead of a serialized CloseEvent. Stop (GraphiQL calls `return`) unsubscribes at once:
 * an async generator would wait for the next message first.
 */
function subscription(token: string, params: { query: string; operationName?: string | null; variables?: unknown }) {
  const messages = liveClient(token).iterate({
    query: params.query,
    operationName: params.operationName ?? undefined,
    variables: (params.variables ?? undefined) as Record<string, unknown> | undefined,
  });
  let ended = false;
  const iterator: AsyncIterableIterator<Result> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      if (ended) return { done: true, value: undefined };
      try {
        return (await messages.next()) as IteratorResult<Result>;
      } catch (error) {
        ended = true;
        return { done: false, value: subscriptionFailure(error) };
      }
    },
    async return() {
      await messages.return?.();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

/** GraphiQL's fetcher for one token: every operation, the docs explorer's introspection too. */
function fetcherFor(token: string): GraphiQLProps['fetcher'] {
  return async (params, options) => {
    if (isSubscription(params)) {
      // The server would close the socket with 4401: said before opening one.
      if (!token) return failed('Subscriptions need a private token: put yours in the field above.');
      return subscription(token, params);
    }
    const answer = await post(token, params, options?.headers);
    // GraphiQL lets an introspection that answers late overwrite a newer one's schema with its
    // error (the anonymous 401 arriving after the token's schema): an answer for a token no
    // longer in use is dropped, and that introspection never ends.
    if (token !== tokenInUse && params.operationName === 'IntrospectionQuery') return new Promise<never>(() => {});
    return answer;
  };
}

function TokenForm({ token, onToken }: { token: string; onToken: (token: string) => void }) {
  const [draft, setDraft] = useState(token);
  // Applied on submit or when the field is left, not per keystroke: each change introspects again,
  // and a half-typed token is a refused credential.
  const apply = () => {
    const next = draft.trim();
    if (next !== token) onToken(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply();
  };
  return (
    <form className="v3hub-explorer-token" onSubmit={submit}>
      <strong className="v3hub-explorer-title">v3hub GraphQL</strong>
      <label htmlFor="v3hub-private-token">Private token</label>
      <input
        id="v3hub-private-token"
        name="private-token"
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder="none: anonymous"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={apply}
      />
      <button type="submit">Use token</button>
      <span className="v3hub-explorer-note" role="status">
        {token
          ? 'Sent as PRIVATE-TOKEN, and to subscriptions in connection_init; kept in this browser.'
          : 'Anonymous: introspection and subscriptions need a token.'}
      </span>
    </form>
  );
}

function Explorer() {
  const [token, setToken] = useState(readToken);
  // A new fetcher makes GraphiQL introspect again, with the new token.
  const fetcher = useMemo(() => fetcherFor(token), [token]);
  const onToken = (next: string) => {
    keepToken(next);
    tokenInUse = next;
    // The next subscription opens a socket signed in with the new token.
    closeLive();
    setToken(next);
  };
  return (
    <div className="v3hub-explorer">
      <TokenForm token={token} onToken={onToken} />
      <div className="v3hub-explorer-graphiql">
        <GraphiQL fetcher={fetcher} defaultQuery={DEFAULT_QUERY} />
      </div>
    </div>
  );
}

createRoot(document.getElementById('explorer')!).render(
  <StrictMode>
    <Explorer />
  </StrictMode>,
);
