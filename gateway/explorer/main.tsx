// The GraphQL explorer the gateway serves at GET /graphql to browsers (gateway/src/explorer.ts):
// GraphiQL with its docs explorer and query history, and a field for the caller's private token.
// Bundled at build time by gateway/scripts/bundle-explorer.cjs; it loads nothing but its own files
// and talks only to this origin's /graphql.
import { GraphiQL, type GraphiQLProps } from 'graphiql';
import { GraphQLError } from 'graphql';
import { type FormEvent, StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './explorer.css';

const ENDPOINT = '/graphql';
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

/** GraphiQL's fetcher for one token: every operation, the docs explorer's introspection too. */
function fetcherFor(token: string): GraphiQLProps['fetcher'] {
  return async (params, options) => {
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
        {token ? 'Sent as PRIVATE-TOKEN; kept in this browser.' : 'Anonymous: introspection needs a token.'}
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
