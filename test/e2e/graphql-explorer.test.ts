import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type WebSocket } from 'playwright-core';
import { api, createProject, createUser, stack, unique } from '../support/api';

// The explorer browsers get at the gateway's GET /graphql (gateway/src/explorer.ts), in Debian's
// Chromium (installed by the global setup when missing; never a downloaded browser). Every request
// to another origin is refused, and the tests assert that none was made, WebSockets included: the
// page must work on a network that reaches nothing but the gateway.

const SCREENSHOT = resolve(__dirname, '..', 'artifacts', 'explorer.png');
const QUERY = '{ viewer { username } }';
const origin = new URL(stack.graphqlUrl).origin;
/** Where the page's subscriptions go: the same host and path, over ws:. */
const liveUrl = stack.graphqlUrl.replace(/^http/, 'ws');

// Run in the page (a string: the tests are type-checked without the DOM's types): the page's
// Content-Security-Policy violations, as it reports them.
const COLLECT_CSP_VIOLATIONS = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) =>
  window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));`;

/** A CodeMirror 5 editor's element, which holds its editor. */
interface CodeMirrorElement {
  CodeMirror: { getValue(): string };
}

/** What the page's globals hold, as far as the tests read them. */
interface PageGlobals {
  localStorage: { getItem(key: string): string | null };
}

describe('the GraphQL explorer in a browser', () => {
  let profile: string;
  let context: BrowserContext;
  /** Requests to any origin but the gateway's, refused; WebSockets to anywhere but its /graphql, seen. */
  const elsewhere: string[] = [];

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'hub-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: stack.chromium,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1280, height: 800 },
    });
    context.setDefaultTimeout(10_000);
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      elsewhere.push(url);
      return route.abort('blockedbyclient');
    });
    await context.addInitScript(COLLECT_CSP_VIOLATIONS);
  }, 30_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(elsewhere).toEqual([]);
  });

  const open = async () => {
    const page = await context.newPage();
    // context.route does not see WebSockets, and routeWebSocket would replace the page's own
    // WebSocket with Playwright's: watched instead, as the browser reports them.
    page.on('websocket', (socket) => {
      if (socket.url() !== liveUrl) elsewhere.push(socket.url());
    });
    const response = await page.goto(stack.graphqlUrl);
    expect(response?.status()).toBe(200);
    return { page, headers: response!.headers() };
  };
  const cspViolations = (page: Page) => page.evaluate<string[]>('window.cspViolations');
  const docs = (page: Page) => page.locator('.graphiql-doc-explorer-content');
  const response = (page: Page) => page.locator('.graphiql-response');
  /** The result pane's text as GraphiQL's CodeMirror holds it (its rendering adds fold markers). */
  const result = (page: Page) =>
    page
      .locator('.graphiql-response .CodeMirror')
      .evaluate((element) => (element as unknown as CodeMirrorElement).CodeMirror.getValue());

  it('is served as HTML under a same-origin CSP; without a token its introspection is refused', async () => {
    const { page, headers } = await open();
    expect(headers['content-type']).toMatch(/^text\/html/);
    for (const directive of ["script-src 'self'", "style-src 'self'", "connect-src 'self'", "font-src 'self'"])
      expect(headers['content-security-policy']).toContain(directive);
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');

    // A fresh profile: no token kept, so the docs explorer's introspection goes out anonymous.
    expect(await page.getByLabel('Private token').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await docs(page).getByText('Error fetching schema').waitFor();
    await response(page).getByText('introspection needs a signed-in caller').waitFor();
    expect(await docs(page).getByText('Root Types').count()).toBe(0);
    expect(await cspViolations(page)).toEqual([]);
    await page.close();
  });

  it('sends the token field as PRIVATE-TOKEN: the docs, a typed query and its answer, kept across a reload', async () => {
    const user = await createUser();
    const { page } = await open();
    await page.getByLabel('Private token').fill(user.token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await docs(page).getByText('Root Types').waitFor();

    // GraphiQL's editor (CodeMirror): replace the sample with a query typed key by key.
    await page.locator('.graphiql-query-editor .CodeMirror').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(QUERY);
    // GraphiQL copies the editor's text into its tab, which the history records, half a second
    // after the last key; run before that and the history gets the sample too.
    // (A function, not a string, which the page's CSP would refuse to evaluate.)
    await page.waitForFunction(
      (query) => (globalThis as unknown as PageGlobals).localStorage.getItem('graphiql:query') === query,
      QUERY,
    );
    await page.getByRole('button', { name: /Execute query/ }).click();
    await response(page).getByText(`"${user.username}"`).waitFor();
    expect(await response(page).innerText()).toContain('"viewer"');
    expect(await cspViolations(page)).toEqual([]);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    rmSync(SCREENSHOT, { force: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(0);

    // The token stays in localStorage, and the query in GraphiQL's history.
    await page.reload();
    expect(await page.getByLabel('Private token').inputValue()).toBe(user.token);
    await page.getByRole('button', { name: 'Show History' }).click();
    const history = page.locator('.graphiql-history-item-label');
    await history.first().waitFor();
    expect((await history.allInnerTexts()).map((label) => label.trim())).toEqual([QUERY]);
    expect(await cspViolations(page)).toEqual([]);
    await page.close();
  });

  it('runs a subscription over a WebSocket to its own /graphql, signed in with the token field', async () => {
    const user = await createUser();
    const project = await createProject(user.token);
    const subscription = `subscription { issueUpdated(projectId: ${project.id}) { action issue { title state } } }`;
    const { page } = await open();
    const sockets: WebSocket[] = [];
    page.on('websocket', (socket) => sockets.push(socket));
    const useToken = async (token: string) => {
      await page.getByLabel('Private token').fill(token);
      await page.getByRole('button', { name: 'Use token' }).click();
    };
    // GraphiQL's one button: "Execute query" becomes "Stop query" while a subscription runs.
    const button = (action: 'Execute' | 'Stop') => page.getByRole('button', { name: `${action} query (Ctrl-Enter)` });

    // Anonymous (the field emptied of an earlier test's token): said at once, and no socket opened.
    await useToken('');
    await page.locator('.graphiql-query-editor .CodeMirror').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(subscription);
    await button('Execute').click();
    await response(page).getByText('Subscriptions need a private token').waitFor();
    expect(sockets).toEqual([]);

    // A refused token: the gateway closes the socket with 4401, and the page says so.
    await useToken(unique('not-a-token'));
    await button('Execute').click();
    await response(page).getByText('refused this token for subscriptions (4401').waitFor();
    expect(sockets).toHaveLength(1);

    // The user's token: a socket of its own. graphql-ws does not say when the server has started
    // the subscription, so issues are opened until one shows; each message replaces the last.
    await useToken(user.token);
    await button('Execute').click();
    const deadline = Date.now() + 20_000;
    let shown: { id: number; title: string } | undefined;
    while (!shown) {
      if (Date.now() > deadline) throw new Error(`no issue showed: the result pane holds ${await result(page)}`);
      const title = unique('explorer');
      const opened = await api('POST', `/projects/${project.id}/issues`, { token: user.token, body: { title } });
      expect(opened.status).toBe(201);
      const arrived = await response(page)
        .getByText(title)
        .waitFor({ timeout: 2_000 })
        .then(
          () => true,
          () => false,
        );
      if (arrived) shown = { id: (opened.body as { id: number }).id, title };
    }
    expect(JSON.parse(await result(page))).toEqual({
      data: { issueUpdated: { action: 'OPENED', issue: { title: shown.title, state: 'OPENED' } } },
    });
    const closed = await api('PUT', `/projects/${project.id}/issues/${shown.id}`, {
      token: user.token,
      body: { state_event: 'close' },
    });
    expect(closed.status).toBe(200);
    await response(page).getByText('"CLOSED"').first().waitFor();
    expect(JSON.parse(await result(page))).toEqual({
      data: { issueUpdated: { action: 'CLOSED', issue: { title: shown.title, state: 'CLOSED' } } },
    });

    // Stop unsubscribes: the socket, holding nothing else, closes.
    const socket = sockets.at(-1)!;
    expect(socket.isClosed()).toBe(false);
    await button('Stop').click();
    if (!socket.isClosed()) await socket.waitForEvent('close');
    await button('Execute').waitFor();

    expect(sockets.map((made) => made.url())).toEqual([liveUrl, liveUrl]);
    expect(await cspViolations(page)).toEqual([]);
    await page.close();
  });

  it('leaves /graphql to GraphQL for everything but a browser’s GET; the assets are cached for good', async () => {
    const curl = await fetch(`${stack.graphqlUrl}?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: '*/*', 'apollo-require-preflight': 'true' },
    });
    expect(curl.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await curl.json()).toMatchObject({ data: { __typename: 'Query' } });

    const html = await fetch(stack.graphqlUrl, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(html.headers.get('vary')).toMatch(/accept/i);
    const script = /<script[^>]* src="([^"]+)"/.exec(await html.text())?.[1];
    expect(script).toMatch(/^\/graphql\/explorer\/explorer-\w+\.js$/);
    const asset = await fetch(new URL(script!, origin));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
    await asset.arrayBuffer();
  });
});
