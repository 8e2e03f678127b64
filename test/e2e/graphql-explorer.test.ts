import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createUser, stack } from '../support/api';

// The explorer browsers get at the gateway's GET /graphql (gateway/src/explorer.ts), in Debian's
// Chromium (installed by the global setup when missing; never a downloaded browser). Every request
// to another origin is refused, and the tests assert that none was made: the page must work on a
// network that reaches nothing but the gateway.

const SCREENSHOT = resolve(__dirname, '..', 'artifacts', 'explorer.png');
const QUERY = '{ viewer { username } }';
const origin = new URL(stack.graphqlUrl).origin;

// Run in the page (a string: the tests are type-checked without the DOM's types): the page's
// Content-Security-Policy violations, as it reports them.
const COLLECT_CSP_VIOLATIONS = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) =>
  window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));`;

/** What the page's globals hold, as far as the tests read them. */
interface PageGlobals {
  localStorage: { getItem(key: string): string | null };
}

describe('the GraphQL explorer in a browser', () => {
  let profile: string;
  let context: BrowserContext;
  /** Requests to any origin but the gateway's, refused. */
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
    const response = await page.goto(stack.graphqlUrl);
    expect(response?.status()).toBe(200);
    return { page, headers: response!.headers() };
  };
  const cspViolations = (page: Page) => page.evaluate<string[]>('window.cspViolations');
  const docs = (page: Page) => page.locator('.graphiql-doc-explorer-content');
  const response = (page: Page) => page.locator('.graphiql-response');

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
