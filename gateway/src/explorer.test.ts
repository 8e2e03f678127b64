import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { request } from 'undici';
import { EXPLORER_CSP, explorerRouter } from './explorer';

// The routing of /graphql between the explorer and the GraphQL server, on a built explorer of its
// own (the real one is driven in a browser by test/e2e/graphql-explorer.test.ts).

const PAGE = '<!doctype html><title>explorer</title>';
const CHROME = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('the explorer router', () => {
  let dir: string;
  let base: string;
  let server: ReturnType<express.Express['listen']>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'explorer-test-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    writeFileSync(join(dir, 'assets', 'explorer-ABC123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'not an asset');
    const app = express();
    // In front of what stands for the GraphQL server: it says what reached it.
    app.use('/graphql', express.json(), explorerRouter(dir), (req, res) => {
      res.json({ graphql: `${req.method} ${req.originalUrl}` });
    });
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const send = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const response = await request(base + path, {
      method: method as 'GET',
      headers,
      body: method === 'POST' ? '{"query":"{ __typename }"}' : undefined,
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  };

  it.each([
    ["a browser's GET", 'GET', '/graphql', { accept: CHROME }],
    ["a browser's GET with a query string", 'GET', '/graphql?query=%7B__typename%7D', { accept: CHROME }],
    ['a GET that ranks HTML first', 'GET', '/graphql/', { accept: 'text/html, application/json;q=0.9' }],
  ])('gives %s the page, under its CSP', async (_what, method, path, headers) => {
    const page = await send(method, path, headers);
    expect(page).toMatchObject({ status: 200, text: PAGE });
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': EXPLORER_CSP,
      'cache-control': 'no-cache',
      vary: 'Accept',
      'x-content-type-options': 'nosniff',
    });
  });

  it.each([
    ['curl (*/*)', 'GET', '/graphql?query=%7B__typename%7D', { accept: '*/*' }],
    ['no Accept header', 'GET', '/graphql?query=%7B__typename%7D', {}],
    ['JSON asked for', 'GET', '/graphql', { accept: 'application/json' }],
    ['JSON and HTML alike (the first named wins)', 'GET', '/graphql', { accept: 'application/json, text/html' }],
    ['HTML ranked below JSON', 'GET', '/graphql', { accept: 'text/html;q=0.5, application/json' }],
    ['GraphQL over HTTP', 'GET', '/graphql', { accept: 'application/graphql-response+json, text/html;q=0.9' }],
    ['a POST from a browser', 'POST', '/graphql', { accept: CHROME, 'content-type': 'application/json' }],
    ['a POST to an asset path', 'POST', '/graphql/explorer/explorer-ABC123.js', { 'content-type': 'application/json' }],
  ])('leaves %s to the GraphQL server', async (_what, method, path, headers) => {
    const answer = await send(method, path, headers);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ graphql: `${method} ${path}` });
  });

  it('serves the assets for a year, as their names change with their content', async () => {
    const asset = await send('GET', '/graphql/explorer/explorer-ABC123.js');
    expect(asset).toMatchObject({ status: 200, text: 'console.log(1)' });
    expect(asset.headers).toMatchObject({
      'content-type': expect.stringMatching(/^application\/javascript|^text\/javascript/),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
  });

  it.each([
    ['a name no build made', '/graphql/explorer/explorer-OLD.js'],
    ['the folder itself', '/graphql/explorer/'],
    ['a file beside the assets', '/graphql/explorer/..%2Fsecret.txt'],
    ['the page by name', '/graphql/explorer/..%2Findex.html'],
  ])('answers 404 for %s', async (_what, path) => {
    const missing = await send('GET', path, { accept: CHROME });
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('not an asset');
  });

  it('refuses to start without a built explorer', () => {
    expect(() => explorerRouter(join(dir, 'assets'))).toThrow(/GraphQL explorer is not built/);
  });
});
